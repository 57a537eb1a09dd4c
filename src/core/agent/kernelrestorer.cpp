#include "agent/kernelrestorer.h"

#include "logging.h"
#include "sandbox/sandboxsession.h"
#include "storage/conversationstore.h"

#include <QPointer>
#include <QTimer>

namespace Sandpiper {

KernelRestorer::KernelRestorer(SandboxSession *sandbox, ConversationStore *store, qint64 conversationId, bool automatic,
                               QObject *parent)
    : QObject(parent)
    , m_sandbox(sandbox)
    , m_store(store)
    , m_conversationId(conversationId)
    , m_automatic(automatic)
{
    connect(m_sandbox, &SandboxSession::stateChanged, this,
            [this](SandboxSession::State state) { stateChanged(state != SandboxSession::State::Stopped); });
    // A new loop has a new kernel: what earlier cells defined is not in it.
    if (store && conversationId > 0) {
        if (const auto executions = store->executions(conversationId)) {
            m_replayable = KernelRestore::replayable(*executions);
            m_lastExecution = executions->isEmpty() ? 0 : executions->constLast().id;
        }
    }
    m_restorePending = !m_replayable.isEmpty();
    m_lostReason = KernelRestore::reopenedReason();
}

void KernelRestorer::record(const StoredExecution &execution)
{
    const QList<StoredExecution> cell = KernelRestore::replayable({execution});
    m_replayable << cell;
    if (!cell.isEmpty())
        m_ran << execution.id;
    if (execution.id != 0)
        m_lastExecution = execution.id;
    m_codeSinceNew = true;
}

QList<qint64> KernelRestorer::replayableIds() const
{
    QList<qint64> ids;
    ids.reserve(m_replayable.size());
    for (const StoredExecution &cell : m_replayable)
        ids << cell.id;
    return ids;
}

qsizetype KernelRestorer::replayStart() const
{
    // A live kernel that ran the first cells of the branch and nothing else goes on from there.
    // Cells are told apart by their rows: without a store (row 0) a replay starts over.
    const QList<qint64> ids = replayableIds();
    if (m_kernelAlive && !m_ran.contains(0) && m_ran.size() <= ids.size() &&
        std::equal(m_ran.cbegin(), m_ran.cend(), ids.cbegin()))
        return m_ran.size();
    return 0;
}

void KernelRestorer::setBranch(const QList<StoredExecution> &executions)
{
    m_replayable = KernelRestore::replayable(executions);
    m_lastExecution = executions.isEmpty() ? 0 : executions.constLast().id;
    m_followDeclined = false;
    m_offBranchTold = false;
    // A live kernel follows the branch (follow()); a kernel that is gone is offered the branch's cells.
    m_offBranch = m_kernelAlive && m_ran != replayableIds();
    if (m_offBranch)
        return;
    putFolderBack();
    if (!m_kernelAlive) {
        const bool wasPending = std::exchange(m_restorePending, !m_replayable.isEmpty());
        if (wasPending || m_restorePending)
            offer(m_lostReason);
    }
}

QCoro::Task<bool> KernelRestorer::follow()
{
    if (!m_offBranch || m_restoring)
        co_return false;
    // With the network on, a cell run again could send, post or buy something a second time.
    if (m_sandbox->config().network) {
        offer(KernelRestore::branchReason());
        co_return false;
    }
    QPointer<KernelRestorer> self(this);
    const KernelRestore restore = co_await replay(true);
    if (self)
        m_restoreNote = restore.modelNote();
    co_return true;
}

QString KernelRestorer::restoreFolder(qint64 afterExecution)
{
    if (!m_store || m_conversationId <= 0)
        return {};
    const SandboxConfig &sandbox = m_sandbox->config();
    const auto restored =
        m_store->restoreFolder(m_conversationId, afterExecution, sandbox.diskLimitBytes, sandbox.minFreeDiskBytes);
    return restored ? restored->problem : restored.error().message;
}

void KernelRestorer::putFolderBack()
{
    // Nothing waits on it: what could not be put back is only logged.
    if (const QString problem = restoreFolder(m_lastExecution); !problem.isEmpty())
        qCWarning(lcAgent) << "the folder did not follow the branch:" << problem;
}

void KernelRestorer::offer(const QString &reason)
{
    AgentEvent offered;
    offered.kind = AgentEvent::Kind::RestoreOffered;
    offered.restore = KernelRestore::offer(m_replayable.mid(m_offBranch ? replayStart() : 0), reason);
    offered.restore.branch = m_offBranch;
    Q_EMIT event(offered);
}

void KernelRestorer::kernelEmptied()
{
    m_ran.clear();
    m_codeSinceNew = false;
    // A kernel that held another branch's variables leaves that branch's files behind (a replay
    // puts the folder back itself).
    if (!m_restoring && std::exchange(m_offBranch, false))
        putFolderBack();
}

void KernelRestorer::stateChanged(bool alive)
{
    if (alive == std::exchange(m_kernelAlive, alive))
        return;
    AgentEvent changed;
    changed.kind = AgentEvent::Kind::KernelChanged;
    changed.kernelAlive = alive;
    Q_EMIT event(changed);
    // The sandbox tells why only after the kernel is gone.
    if (!alive) {
        kernelEmptied();
        QTimer::singleShot(0, this, &KernelRestorer::kernelStopped);
    }
}

void KernelRestorer::restartKernel()
{
    m_restorePending = false;
    m_ignoreNextStop = m_kernelAlive;
    kernelEmptied();
    m_sandbox->restart();
}

void KernelRestorer::kernelStopped()
{
    if (m_restoring || m_kernelAlive || std::exchange(m_ignoreNextStop, false) || m_replayable.isEmpty())
        return;
    m_restorePending = true;
    m_lossTold = false;
    m_restoreNote.clear(); // a replay into the kernel that is gone
    m_lostReason = m_sandbox->resetReason().isEmpty() ? tr("the kernel had stopped") : m_sandbox->resetReason();
    offer(m_lostReason);
}

void KernelRestorer::cancel()
{
    m_cancelled = true;
    if (m_restoring)
        m_sandbox->interrupt();
}

QCoro::Task<KernelRestore> KernelRestorer::restore(bool rerunWritingCells)
{
    QPointer<KernelRestorer> self(this);
    const KernelRestore restore = co_await replay(rerunWritingCells);
    if (self)
        m_restoreNote = restore.modelNote();
    co_return restore;
}

QCoro::Task<QString> KernelRestorer::noteBeforeCode()
{
    if (m_offBranch) {
        // The model's code should run on its branch's variables, unless the user chose otherwise.
        if (!m_followDeclined && !m_sandbox->config().network) {
            const KernelRestore restore = co_await replay(true);
            co_return QString(restore.modelNote() + QLatin1String("\n\n"));
        }
        // Once: what a replay that stopped did, or why none ran.
        if (!m_offBranchTold && !m_restoreNote.isEmpty()) {
            m_offBranchTold = true;
            co_return QString(std::exchange(m_restoreNote, QString()) + QLatin1String("\n\n"));
        }
        if (!std::exchange(m_offBranchTold, true))
            co_return QStringLiteral(
                "Note: the conversation moved to another branch (the user switched to another version of a message "
                "or edited an earlier one), and the Python kernel was not brought to it%1: it may hold variables "
                "of cells this branch does not have and lack some of this branch's. Define again what this code "
                "needs; do not trust values this branch did not define.\n\n")
                .arg(m_followDeclined ? QStringLiteral(" (the user chose to continue without)")
                                      : QStringLiteral(" (the sandbox has network access, so its cells were not "
                                                       "run again without the user's consent)"));
    }
    if (m_restorePending && m_automatic) {
        const KernelRestore restore = co_await replay(false);
        co_return QString(restore.modelNote() + QLatin1String("\n\n"));
    }
    if (!m_restoreNote.isEmpty())
        co_return QString(std::exchange(m_restoreNote, QString()) + QLatin1String("\n\n"));
    if (m_restorePending && !std::exchange(m_lossTold, true)) {
        co_return QStringLiteral("Note: the Python kernel of this conversation is new (%1): the variables, imports and "
                                 "functions of the %2 earlier successful cells are gone and were not restored. Define "
                                 "again what this code needs; the user can also restore them.\n\n")
            .arg(m_lostReason)
            .arg(m_replayable.size());
    }
    co_return {};
}

QCoro::Task<KernelRestore> KernelRestorer::replay(bool rerunWritingCells)
{
    QPointer<KernelRestorer> self(this);
    const bool toBranch = m_offBranch;
    const qsizetype start = replayStart();
    const QList<StoredExecution> cells = m_replayable;
    KernelRestore restore =
        KernelRestore::offer(cells.mid(start), toBranch ? KernelRestore::branchReason() : m_lostReason);
    restore.branch = toBranch;
    // A replay starts only while nothing was stopped: a stop from here on is this replay's.
    m_cancelled = false;
    m_restoring = true;
    // A replay to a branch may begin on the agent's own (AgentLoop::followBranch): this makes the
    // conversation busy before the kernel restarts.
    if (toBranch) {
        AgentEvent started;
        started.kind = AgentEvent::Kind::RestoreProgress;
        started.restore = restore;
        Q_EMIT event(started);
    }
    // Run from the start, the cells run on a clean kernel, on what they ran on.
    if (start == 0) {
        if (m_kernelAlive && m_codeSinceNew)
            m_sandbox->restart();
        m_ran.clear();
    }
    // On the way to a branch whose folder was recorded, the folder starts as before its first cell
    // (the user's files only) and ends as the branch left it: writers run again too, and what they
    // write is put back as it was.
    bool filesFollow = false;
    if (toBranch) {
        restore.filesProblem = restoreFolder(m_lastExecution);
        filesFollow = restore.filesProblem.isEmpty();
        if (filesFollow && start == 0)
            filesFollow = restoreFolder(0).isEmpty();
    }
    for (qsizetype i = start; i < cells.size(); ++i) {
        if (m_cancelled) {
            restore.stopped = true;
            break;
        }
        const StoredExecution &cell = cells.at(i);
        if (!rerunWritingCells && !filesFollow && !KernelRestore::writesFiles(cell).isEmpty()) {
            ++restore.skipped;
            ++restore.done;
            continue;
        }
        AgentEvent progress;
        progress.kind = AgentEvent::Kind::RestoreProgress;
        progress.restore = restore;
        progress.text = KernelRestore::cellName(int(i), cell.code);
        Q_EMIT event(progress);
        ExecuteOptions options;
        options.maxFigures = 0; // the figures were drawn when the cells first ran
        for (const DataTable &table : cell.result.tables)
            options.tableIds << table.tableId;
        const ExecutionResult result = co_await m_sandbox->execute(cell.code, options);
        if (!self)
            co_return restore;
        if (m_cancelled && result.status == ExecutionResult::Status::Interrupted) {
            restore.stopped = true;
            break;
        }
        ++restore.done;
        if (result.status == ExecutionResult::Status::Ok) {
            ++restore.restored;
            m_ran << cell.id;
            continue;
        }
        restore.failures << tr("%1: %2").arg(KernelRestore::cellName(int(i), cell.code),
                                             KernelRestore::failure(result));
        // Without a kernel, or with a new one, the rest would run on nothing.
        if (result.status == ExecutionResult::Status::Crashed ||
            result.status == ExecutionResult::Status::Unavailable || result.stateLost) {
            restore.stopped = true;
            break;
        }
        // On the way to a branch it stops there; going on runs the cells after the one that failed.
        if (toBranch) {
            m_ran << cell.id;
            restore.stopped = true;
            break;
        }
    }
    if (filesFollow) {
        restore.filesProblem = restoreFolder(m_lastExecution);
        restore.filesBack = restore.filesProblem.isEmpty();
    }
    m_restoring = false;
    m_codeSinceNew = m_codeSinceNew || restore.done > 0;
    if (toBranch) {
        m_offBranch = m_kernelAlive && m_ran != replayableIds();
        // Stopped by the user or by a cell that failed, the user chooses whether it goes on.
        m_followDeclined = m_offBranch && restore.stopped;
        m_offBranchTold = !m_offBranch;
    }
    // Stopped by the user, it can be tried again; done, or ended by a cell that kills the kernel,
    // it is not tried again for this kernel.
    m_restorePending = !toBranch && restore.stopped && m_cancelled;
    m_lossTold = !m_restorePending;
    AgentEvent finished;
    finished.kind = AgentEvent::Kind::RestoreFinished;
    finished.restore = restore;
    finished.text = restore.userSummary();
    Q_EMIT event(finished);
    co_return restore;
}

} // namespace Sandpiper
