#pragma once

#include <sandbox/enginefiles.h>

#include <QObject>
#include <QPointer>

#include <QCoroTask>

class QWidget;

namespace Sandpiper {

// Files that a remote engine's container keeps (too large to copy back after their execution)
// go with the container when the app quits. Before the window closes, this asks, without
// blocking: copy them here first, quit without them, or stay.
class EngineFilesOnQuit : public QObject
{
    Q_OBJECT

public:
    explicit EngineFilesOnQuit(QWidget *window);

    // Whether WINDOW may close now. When files would be lost it asks and says no; once they are
    // copied, or the user lets them go, it closes the window itself.
    bool mayClose();

    struct Copied {
        QStringList errors;   // a sentence each
        bool stopped = false; // the user stopped the copy
    };
    // Copies WAITING here, one file after another, with the progress in a dialog over PARENT.
    static QCoro::Task<Copied> copyHere(QList<EngineFiles::Waiting> waiting, QPointer<QWidget> parent);
    // What the question says of WAITING.
    static QString question(const QList<EngineFiles::Waiting> &waiting);

private:
    QCoro::Task<> copyThenClose(QList<EngineFiles::Waiting> waiting);
    void closeNow();

    QPointer<QWidget> m_window;
    bool m_settled = false; // the user chose: the next close goes ahead
    bool m_busy = false;    // asking or copying
};

} // namespace Sandpiper
