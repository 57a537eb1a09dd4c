#pragma once

#include "localmodels/modeldownload.h"
#include "result.h"

#include <QFileInfo>
#include <QObject>
#include <QPointer>

#include <QCoroTask>

namespace Sandpiper {

class HubClient;
class Settings;

// The app's downloads of models from the Hugging Face hub, one at a time. It belongs to the app
// (beside LocalModelHost, on the GUI thread), not to the window that started it: closing the
// settings dialog or leaving the welcome page lets the download go on, and the next dialog shows
// it again. A download not finished when Sandpiper quits (or dies) stays as its .part files and
// is named in the settings, so that the next start offers to go on from there.
class ModelDownloads : public QObject
{
    Q_OBJECT

public:
    explicit ModelDownloads(Settings *settings, QObject *parent = nullptr);
    ~ModelDownloads() override;

    ModelDownload *current() const { return m_current; }
    // Whether a download is being prepared or under way (paused counts): a new one must wait.
    bool busy() const;
    // Lists REPOSITORY on the hub, then starts the download of its QUANTIZATION (Q4_K_M or the
    // smallest when empty) with TOKEN; or why not.
    QCoro::Task<Result<ModelDownload *>> download(QString repository, QString quantization, QString token);
    // The download that had not finished when Sandpiper last stopped ("owner/name:QUANTIZATION"),
    // while no download of this run took its place; empty when there is none.
    QString unfinished() const;
    // Goes on with the unfinished download, from where it stopped (the token from the keychain).
    QCoro::Task<Result<ModelDownload *>> resumeUnfinished();
    // How much of the unfinished download is on the disk.
    qint64 unfinishedBytes() const;
    // Forgets the unfinished download and deletes what came of it.
    void discardUnfinished();
    // A download's name for the user: the repository's name without "-GGUF".
    static QString displayName(const QString &repository);
    // The status bar's line: "Downloading NAME… 42 %", paused, failed, or the unfinished one;
    // empty when there is nothing to say.
    QString summary() const;
    // The share done, 0 to 1; -1 when no download runs.
    double fraction() const;

Q_SIGNALS:
    // A download was made (the dialog and the welcome page show it).
    void started(Sandpiper::ModelDownload *download);
    // Its progress or state changed, or the unfinished one went: summary() may say something else.
    void changed();

private:
    void remember(const QString &repository, const QString &quantization);
    void forget();
    // The files the unfinished download left (FILE.part).
    QFileInfoList unfinishedParts() const;

    Settings *m_settings;
    HubClient *m_hub;
    QPointer<ModelDownload> m_current;
    QString m_repository; // of m_current
    bool m_preparing = false;
};

} // namespace Sandpiper
