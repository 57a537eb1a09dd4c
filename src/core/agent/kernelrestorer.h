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
//
// The kernel also follows the conversation's branch. It knows which cells the live kernel ran;
// when the model is to read another branch (a version switched to, an earlier message edited)
// and the kernel holds cells that branch does not have, follow() runs that branch's cells again
// in a fresh kernel (or only the missing ones when the kernel ran the branch's first cells), and
// the store puts the folder back as the branch's last run of code left it.
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
    // The branch the model reads from now on: EXECUTIONS are its runs of code, oldest first. A live
    // kernel that did not run exactly the branch's cells is off the branch until follow() brings it
    // there; otherwise the folder is put back as the branch left it at once, and a kernel that is
    // gone is offered the branch's cells.
    void setBranch(const QList<StoredExecution> &executions);
    // The kernel holds variables of cells the branch the model reads does not have, or lacks some of its.
    bool isOffBranch() const { return m_offBranch; }
    // Brings the kernel and the folder to the branch (see setBranch()) with RestoreProgress and
    // RestoreFinished; with the sandbox's network on, cells could act outside it again, so it only
    // offers that (RestoreOffered). True when a replay ran.
    QCoro::Task<bool> follow();
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
    // Puts the folder back as the run of code AFTEREXECUTION left it (0: before any code ran).
    QString restoreFolder(qint64 afterExecution);
    // Puts the folder back as the branch's last run of code left it.
    void putFolderBack();
    // Tells the front ends what a replay would run now, for REASON.
    void offer(const QString &reason);
    QList<qint64> replayableIds() const;
    // Where a replay starts in m_replayable: after the cells the live kernel ran, when they are the
    // branch's first ones; else 0, in a clean kernel.
    qsizetype replayStart() const;
    // The kernel holds no cell's variables any more.
    void kernelEmptied();
    void stateChanged(bool alive);
    // The kernel is gone: if earlier cells defined something, restoring it is offered.
    void kernelStopped();

    SandboxSession *m_sandbox;
    ConversationStore *m_store;
    qint64 m_conversationId;
    bool m_automatic;
    // The successful code of the branch the model reads, oldest first.
    QList<StoredExecution> m_replayable;
    qint64 m_lastExecution = 0; // the branch's last run of code, whose folder it has
    QList<qint64> m_ran;        // the cells of m_replayable's kind that the live kernel ran, in order
    bool m_offBranch = false;
    bool m_offBranchTold = false;  // the model knows the kernel is not on its branch
    bool m_followDeclined = false; // the user stopped bringing the kernel to this branch
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
