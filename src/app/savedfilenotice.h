#pragma once

#include <QDBusConnection>
#include <QWidget>

class QLabel;
class QToolButton;

namespace Sandpiper {

// The status bar's note after the user saved a file (an export): which file, in which folder,
// and Show in folder, which asks the desktop's file manager to open the folder with the file
// selected (org.freedesktop.FileManager1) or, without one, opens the folder.
class SavedFileNotice : public QWidget
{
    Q_OBJECT

public:
    explicit SavedFileNotice(QDBusConnection connection = QDBusConnection::sessionBus(), QWidget *parent = nullptr);

    // Shows that PATH was written; DETAIL, a sentence, says more about it.
    void announce(const QString &path, const QString &detail = {});
    // What the note says, whole (the label may be cut short).
    QString message() const { return m_message; }
    QToolButton *showButton() const { return m_show; }
    // Room for the whole message; with less, the message is cut short.
    QSize sizeHint() const override;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showInFolder();
    void elide();

    QDBusConnection m_connection;
    QLabel *m_label;
    QToolButton *m_show;
    QToolButton *m_close;
    QString m_path;
    QString m_message;
};

} // namespace Sandpiper
