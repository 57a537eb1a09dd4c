#pragma once

#include "agent/agentevent.h"
#include "agent/kernelrestore.h"

#include <QObject>

#include <QCoroTask>

namespace Sandpiper {

class ConversationStore;
class SandboxSession;

// Brings a conversation's variables back into a new kernel: watches the sandbox's kernel, offers
// a restore when it is lost, replays the earlier successful cells (on the user's request, or
// before the model's code when the setting says so) and knows what the model has been told.
// KernelRestore is the value it reports; this is the state between reports.
class KernelRestorer : public QObject
{
    Q_OBJECT

public:
    // The cells of conversation CONVERSATIONID in STORE (none without a store) ran in a kernel
    // that is gone: the kernel of SANDBOX is new. With AUTOMATIC, they run again before the
    // model's next code.
    KernelRestorer(SandboxSession *sandbox, ConversationStore *store, qint64 conversationId, bool automatic,
                   QObject *parent = nullptr);

    void setAutomatic(bool automatic) { m_automatic = automatic; }
    bool isRestoring() const { return m_restoring; }
    // Code ran in the kernel; a later replay runs it again when it went well.
    void record(const StoredExecution &execution);
    // The user asked for a clean kernel: it is not offered the old variables back.
    void restartKernel();
    // The user asked for the variables back; cells that write into /mnt/data run again only with
    // RERUNWRITINGCELLS. The model hears of it with the next result of its code.
    QCoro::Task<KernelRestore> restore(bool rerunWritingCells);
    // What the model is told before its code runs in this kernel, after the automatic replay
    // when that is due; empty when there is nothing to tell.
    QCoro::Task<QString> noteBeforeCode();
    // Stops a replay that runs.
    void cancel();

Q_SIGNALS:
    // KernelChanged, RestoreOffered, RestoreProgress, RestoreFinished.
    void event(const Sandpiper::AgentEvent &event);

private:
    QCoro::Task<KernelRestore> replay(bool rerunWritingCells);
    void stateChanged(bool alive);
    // The kernel is gone: if earlier cells defined something, restoring it is offered.
    void kernelStopped();

    SandboxSession *m_sandbox;
    bool m_automatic;
    // The conversation's successful code, oldest first.
    QList<StoredExecution> m_replayable;
    bool m_kernelAlive = false;
    bool m_restorePending = false; // the kernel lacks what the cells defined
    bool m_restoring = false;
    bool m_cancelled = false;
    bool m_ignoreNextStop = false; // the user restarted the kernel
    bool m_codeSinceNew = false;   // the kernel ran code since it started
    bool m_lossTold = false;       // the model knows the variables are gone
    QString m_lostReason;
    QString m_restoreNote; // a replay the user asked for, for the next result of code
};

} // namespace Sandpiper
