#pragma once

#include <QObject>

class QImage;
class QStatusBar;
class QWidget;

namespace Sandpiper {

class ConversationSession;

// What the user gives a conversation to go with the next message: files chosen in the file
// dialog, files and images dropped or pasted into the composer, a figure shown to the model.
// What fails is said in a message box over WINDOW, what is worth knowing in its status bar.
class Attachments : public QObject
{
    Q_OBJECT

public:
    Attachments(QWidget *window, QStatusBar *statusBar);

    // The files the user picks in the file dialog; none when cancelled.
    QStringList choose();
    // PATHS go to SESSION as files.
    void attach(ConversationSession *session, const QStringList &paths);
    // Dropped or pasted files: images go to the model as images (and to the folder), others as files.
    void drop(ConversationSession *session, const QStringList &paths);
    void attachPasted(ConversationSession *session, const QImage &image);
    // "Show to the model" on a figure: NAME in the folder goes with the next message; false when
    // it cannot.
    bool showToModel(ConversationSession *session, const QString &name);

private:
    QWidget *m_window;
    QStatusBar *m_statusBar;
};

} // namespace Sandpiper
