#include "executionlistmodel.h"

#include <QLocale>

namespace Sandpiper {

void ExecutionListModel::setExecutions(const QList<StoredExecution> &executions)
{
    beginResetModel();
    m_items.clear();
    for (auto it = executions.crbegin(); it != executions.crend(); ++it)
        m_items.append({it->toolCallId, it->code, it->result, {}, {}, it->origin == StoredExecution::Origin::User});
    endResetModel();
}

int ExecutionListModel::addRunning(const QString &callId, const QString &code, bool byUser)
{
    const int existing = rowOf(callId);
    if (existing >= 0 && !callId.isEmpty())
        return existing;
    beginInsertRows({}, 0, 0);
    m_items.prepend({callId, code, std::nullopt, {}, {}, byUser});
    endInsertRows();
    return 0;
}

void ExecutionListModel::appendOutput(const QString &callId, const QString &stream, const QString &text)
{
    const int row = rowOf(callId);
    if (row < 0)
        return;
    Item &item = m_items[row];
    (stream == QLatin1String("stderr") ? item.liveStderr : item.liveStdout) += text;
    Q_EMIT dataChanged(index(row), index(row));
}

void ExecutionListModel::finish(const QString &callId, const ExecutionResult &result)
{
    const int row = rowOf(callId);
    if (row < 0)
        return;
    m_items[row].result = result;
    Q_EMIT dataChanged(index(row), index(row));
}

QString ExecutionListModel::statusLabel(ExecutionResult::Status status)
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

int ExecutionListModel::rowOf(const QString &callId) const
{
    for (int i = 0; i < m_items.size(); ++i) {
        if (m_items.at(i).callId == callId)
            return i;
    }
    return -1;
}

int ExecutionListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

QVariant ExecutionListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Item &item = m_items.at(index.row());
    const QString firstLine = item.code.trimmed().section(QLatin1Char('\n'), 0, 0).left(60);
    switch (role) {
    case Qt::DisplayRole: {
        const QString who = item.byUser ? tr("you") : tr("model");
        if (!item.result)
            return tr("running… · %1\n%2").arg(who, firstLine);
        const QString seconds = QLocale().toString(double(item.result->durationMs) / 1000.0, 'f', 2);
        return tr("%1 · %2 s · %3\n%4").arg(statusLabel(item.result->status), seconds, who, firstLine);
    }
    case Qt::ToolTipRole:
        return item.code.left(2000);
    case CallIdRole:
        return item.callId;
    default:
        return {};
    }
}

} // namespace Sandpiper
