#include "session/executionmodel.h"

#include "sandbox/terminaltext.h"

#include <QLocale>

namespace Sandpiper {

void ExecutionModel::setExecutions(const QList<StoredExecution> &executions)
{
    beginResetModel();
    m_items.clear();
    for (auto it = executions.crbegin(); it != executions.crend(); ++it)
        m_items.append({it->call, it->code, it->result, {}, {}, it->origin});
    endResetModel();
}

int ExecutionModel::addRunning(const CallKey &call, const QString &code, RunOrigin origin)
{
    if (const int existing = rowOf(call); existing >= 0)
        return existing;
    beginInsertRows({}, 0, 0);
    m_items.prepend({call, code, std::nullopt, {}, {}, origin});
    endInsertRows();
    return 0;
}

void ExecutionModel::appendOutput(const CallKey &call, const QString &stream, const QString &text)
{
    const int row = rowOf(call);
    if (row < 0)
        return;
    Item &item = m_items[row];
    QString &live = stream == QLatin1String("stderr") ? item.liveStderr : item.liveStdout;
    TerminalText::append(live, text);
    TerminalText::keepTail(live, liveOutputKept);
    Q_EMIT dataChanged(index(row), index(row));
}

void ExecutionModel::finish(const CallKey &call, const ExecutionResult &result)
{
    const int row = rowOf(call);
    if (row < 0)
        return;
    m_items[row].result = result;
    m_items[row].liveStdout.clear();
    m_items[row].liveStderr.clear();
    Q_EMIT dataChanged(index(row), index(row));
}

QString ExecutionModel::statusLabel(ExecutionResult::Status status)
{
    switch (status) {
    case ExecutionResult::Status::Ok:
        return tr("ok");
    case ExecutionResult::Status::Error:
        return tr("error");
    case ExecutionResult::Status::Interrupted:
        return tr("interrupted");
    case ExecutionResult::Status::Crashed:
        return tr("crashed");
    case ExecutionResult::Status::Unavailable:
        return tr("unavailable");
    }
    return {};
}

int ExecutionModel::rowOf(const CallKey &call) const
{
    if (!call.isValid())
        return -1;
    for (int i = 0; i < m_items.size(); ++i) {
        if (m_items.at(i).call == call)
            return i;
    }
    return -1;
}

int ExecutionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

QVariant ExecutionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Item &item = m_items.at(index.row());
    const QString firstLine = item.code.trimmed().section(QLatin1Char('\n'), 0, 0).left(60);
    switch (role) {
    case Qt::DisplayRole: {
        const QString who = item.origin == RunOrigin::User ? tr("you") : tr("model");
        if (!item.result)
            return tr("running… · %1\n%2").arg(who, firstLine);
        const QString seconds = QLocale().toString(double(item.result->durationMs) / 1000.0, 'f', 2);
        return tr("%1 · %2 s · %3\n%4").arg(statusLabel(item.result->status), seconds, who, firstLine);
    }
    case Qt::ToolTipRole:
        return item.code.left(2000);
    case CallKeyRole:
        return QVariant::fromValue(item.call);
    case OriginRole:
        return int(item.origin);
    default:
        return {};
    }
}

} // namespace Sandpiper
