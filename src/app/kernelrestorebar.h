#pragma once

#include <QFrame>
#include <QPointer>

class QLabel;
class QProgressBar;
class QPushButton;

namespace Sandpiper {

class ConversationSession;

// Above the composer, while a conversation's kernel is new and earlier cells could bring its
// variables back: offers "Restore variables" (asking first when cells write files into
// /mnt/data), then shows the replay's progress with Stop. Hidden otherwise.
class KernelRestoreBar : public QFrame
{
    Q_OBJECT

public:
    explicit KernelRestoreBar(QWidget *parent = nullptr);

    // Follows SESSION's state; none hides the bar.
    void setSession(ConversationSession *session);

    QPushButton *restoreButton() const { return m_restore; }
    QPushButton *dismissButton() const { return m_dismiss; }
    QPushButton *stopButton() const { return m_stop; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *textLabel() const { return m_text; }

Q_SIGNALS:
    // The bar hid with the keyboard focus in it: the focus should go where the user writes.
    void focusReleased();

private:
    void showState();
    void showStateOnly();
    void restore();

    QPointer<ConversationSession> m_session;
    QLabel *m_text;
    QProgressBar *m_progress;
    QPushButton *m_restore;
    QPushButton *m_dismiss;
    QPushButton *m_stop;
};

} // namespace Sandpiper
