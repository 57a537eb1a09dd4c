#pragma once

#include "llm/chatmessage.h"

#include <QHash>
#include <QObject>

#include <QCoroTask>

namespace Sandpiper {

class ContextBudget;
class SandboxSession;
struct ChatResponse;

// The files and images that go with the user's messages, made ready for the model: whether the
// model takes the images at all, what it is told about the files, and the images of the
// conversation as data URLs (prepared once each) in every request.
class AttachmentPreparer : public QObject
{
    Q_OBJECT

public:
    // The files are in DATADIRECTORY, the conversation's folder; images are scaled to
    // IMAGEMAXSIDE. SANDBOX (none when Python is off) describes files safely; BUDGET knows which
    // models take images.
    AttachmentPreparer(QString dataDirectory, int imageMaxSide, SandboxSession *sandbox, ContextBudget *budget,
                       QObject *parent = nullptr);

    // Why IMAGES cannot go to MODEL, for the user; empty when they can.
    QCoro::Task<QString> imagesRefusal(QString model, QStringList images);
    // USER with the files ATTACHMENTS and the images IMAGES (names in the folder): their names
    // and sizes beside the text, and apart what the model is told about each.
    QCoro::Task<ChatMessage> attach(ChatMessage user, QStringList attachments, QStringList images);
    // MESSAGES as sent to MODEL: the images as image parts, or a note in the text for each that
    // cannot go.
    QList<ChatMessage> withImages(QList<ChatMessage> messages, const QString &model);
    // After REQUEST failed with RESPONSE: when MODEL refused its images, later requests go
    // without them, and the error says so.
    void learnFromRefusal(const QList<ChatMessage> &request, ChatResponse &response, const QString &model);

private:
    // Image NAME as a data URL; empty with ERROR set when it cannot be sent.
    QString imageUrl(const QString &name, QString *error);
    QCoro::Task<QString> describe(QStringList names);

    QString m_dataDirectory;
    int m_imageMaxSide;
    SandboxSession *m_sandbox;
    ContextBudget *m_budget;
    QHash<QString, QString> m_imageUrls; // by file name
};

} // namespace Sandpiper
