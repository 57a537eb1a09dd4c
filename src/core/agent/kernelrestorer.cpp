#include "agent/kernelrestorer.h"

#include "sandbox/sandboxsession.h"
#include "storage/conversationstore.h"

#include <QPointer>
#include <QTimer>

namespace Sandpiper {

KernelRestorer::KernelRestorer(SandboxSession *sandbox, ConversationStore *store, qint64 conversationId, bool automatic,
                               QObject *parent)
    : QObject(parent)
    , m_sandbox(sandbox)
    , m_automatic(automatic)
{
    connect(m_sandbox, &SandboxSession::stateChanged, this,
            [this](SandboxSession::State state) { stateChanged(state != SandboxSession::State::Stopped); });
    // A new loop has a new kernel: what earlier cells defined is not in it.
    if (store && conversationId > 0) {
        if (const auto executions = store->executions(conversationId))
            m_replayable = KernelRestore::replayable(*executions);
    }
    m_restorePending = !m_replayable.isEmpty();
    m_lostReason = KernelRestore::reopenedReason();
}

void KernelRestorer::record(const StoredExecution &execution)
{
    m_replayable << KernelRestore::replayable({execution});
    m_codeSinceNew = true;
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
        m_codeSinceNew = false;
        QTimer::singleShot(0, this, &KernelRestorer::kernelStopped);
    }
}

void KernelRestorer::restartKernel()
{
    m_restorePending = false;
    m_ignoreNextStop = m_kernelAlive;
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
    AgentEvent offered;
    offered.kind = AgentEvent::Kind::RestoreOffered;
    offered.restore = KernelRestore::offer(m_replayable, m_lostReason);
    Q_EMIT event(offered);
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
    const QList<StoredExecution> cells = m_replayable;
    KernelRestore restore = KernelRestore::offer(cells, m_lostReason);
    // A replay starts only while nothing was stopped: a stop from here on is this replay's.
    m_cancelled = false;
    m_restoring = true;
    // A kernel that ran code since it was new starts clean, so the cells run on what they ran on.
    if (m_kernelAlive && m_codeSinceNew)
        m_sandbox->restart();
    for (int i = 0; i < cells.size(); ++i) {
        if (m_cancelled) {
            restore.stopped = true;
            break;
        }
        const StoredExecution &cell = cells.at(i);
        if (!rerunWritingCells && !KernelRestore::writesFiles(cell).isEmpty()) {
            ++restore.skipped;
            ++restore.done;
            continue;
        }
        AgentEvent progress;
        progress.kind = AgentEvent::Kind::RestoreProgress;
        progress.restore = restore;
        progress.text = KernelRestore::cellName(i, cell.code);
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
            continue;
        }
        restore.failures << tr("%1: %2").arg(KernelRestore::cellName(i, cell.code), KernelRestore::failure(result));
        // Without a kernel, or with a new one, the rest would run on nothing.
        if (result.status == ExecutionResult::Status::Crashed ||
            result.status == ExecutionResult::Status::Unavailable || result.stateLost) {
            restore.stopped = true;
            break;
        }
    }
    m_restoring = false;
    m_codeSinceNew = m_codeSinceNew || restore.done > 0;
    // Stopped by the user, it can be tried again; done, or ended by a cell that kills the kernel,
    // it is not tried again for this kernel.
    m_restorePending = restore.stopped && m_cancelled;
    m_lossTold = !m_restorePending;
    AgentEvent finished;
    finished.kind = AgentEvent::Kind::RestoreFinished;
    finished.restore = restore;
    finished.text = restore.userSummary();
    Q_EMIT event(finished);
    co_return restore;
}

} // namespace Sandpiper
