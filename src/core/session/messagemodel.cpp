#include "session/messagemodel.h"

#include "charts/chartspec.h"
#include "storage/storedexecution.h"
#include "tools/charttool.h"
#include "tools/pythontool.h"

#include <QHash>

namespace Sandpiper {

namespace {

// A stored tool message says how its call ended in its first words (see AgentLoop): the call
// was refused or failed before it ran, or it was interrupted.
TurnItem::ToolState stateFromToolMessage(const QString &content)
{
    if (content.startsWith(QLatin1String("Error")) || content.startsWith(QLatin1String("Not run")) ||
        content.startsWith(QLatin1String("Cancelled")))
        return TurnItem::ToolState::NotRun;
    if (content.contains(QLatin1String("interrupted")))
        return TurnItem::ToolState::Interrupted;
    return TurnItem::ToolState::Finished;
}

} // namespace

int MessageModel::rowOfKey(qint64 key) const
{
    for (int row = 0; row < m_items.size(); ++row) {
        if (m_items.at(row).key == key)
            return row;
    }
    return -1;
}

int MessageModel::rowOfCall(const CallKey &key) const
{
    if (!key.isValid())
        return -1;
    // Recent calls are the ones asked about.
    for (int row = int(m_items.size()) - 1; row >= 0; --row) {
        const TurnItem &item = m_items.at(row);
        if (item.kind == TurnItem::Kind::ToolCall && item.callKey == key)
            return row;
    }
    return -1;
}

int MessageModel::streamingRow() const
{
    for (int row = int(m_items.size()) - 1; row >= 0; --row) {
        if (m_items.at(row).isStreaming())
            return row;
    }
    return -1;
}

int MessageModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

QVariant MessageModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TurnItem &item = m_items.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (item.kind) {
        case TurnItem::Kind::Message:
            return item.message.content;
        case TurnItem::Kind::ToolCall:
            return item.call.name;
        case TurnItem::Kind::Notice:
            return item.text;
        }
        return {};
    case KindRole:
        return int(item.kind);
    case KeyRole:
        return item.key;
    case MessageIdRole:
        return item.kind == TurnItem::Kind::Message ? QVariant(item.message.id) : QVariant();
    case CallKeyRole:
        return item.kind == TurnItem::Kind::ToolCall ? QVariant::fromValue(item.callKey) : QVariant();
    case StreamingRole:
        return item.isStreaming();
    default:
        return {};
    }
}

QHash<int, QByteArray> MessageModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(KindRole, "kind");
    names.insert(KeyRole, "key");
    names.insert(MessageIdRole, "messageId");
    names.insert(CallKeyRole, "callKey");
    names.insert(StreamingRole, "streaming");
    return names;
}

namespace {

// Whether A and B show the same stored message or call as it stands: rows the views may keep.
bool sameStoredItem(const TurnItem &a, const TurnItem &b)
{
    if (a.kind != b.kind || a.message.id == 0 || a.message.id != b.message.id)
        return false;
    const auto sameMessage = [](const ChatMessage &x, const ChatMessage &y) {
        return x.content == y.content && x.reasoning == y.reasoning && x.status == y.status && x.version == y.version &&
               x.versionCount == y.versionCount && x.updated == y.updated;
    };
    switch (a.kind) {
    case TurnItem::Kind::Message:
        return sameMessage(a.message, b.message);
    case TurnItem::Kind::ToolCall:
        return a.callKey == b.callKey && a.toolState == b.toolState && a.modelText == b.modelText &&
               sameMessage(a.message, b.message);
    case TurnItem::Kind::Notice:
        return false;
    }
    return false;
}

// With up to this many rows new, the rows above them stay and only the ones below are replaced: a
// switch to another version far down a long conversation builds a few widgets, not a page of them.
constexpr qsizetype incrementalRows = 20;

} // namespace

void MessageModel::reset(QList<TurnItem> items)
{
    qsizetype same = 0;
    while (same < m_items.size() && same < items.size() && sameStoredItem(m_items.at(same), items.at(same)))
        ++same;
    const qsizetype removed = m_items.size() - same;
    const qsizetype added = items.size() - same;
    if (same == 0 || added > incrementalRows) {
        beginResetModel();
        m_items = std::move(items);
        for (TurnItem &item : m_items)
            item.key = m_nextKey++;
        endResetModel();
        return;
    }
    if (removed > 0) {
        beginRemoveRows({}, int(same), int(m_items.size() - 1));
        m_items.resize(same);
        endRemoveRows();
    }
    if (added > 0) {
        beginInsertRows({}, int(same), int(items.size() - 1));
        for (qsizetype row = same; row < items.size(); ++row) {
            TurnItem &item = items[row];
            item.key = m_nextKey++;
            m_items.append(std::move(item));
        }
        endInsertRows();
    }
}

int MessageModel::append(TurnItem item)
{
    const int row = int(m_items.size());
    item.key = m_nextKey++;
    beginInsertRows({}, row, row);
    m_items.append(std::move(item));
    endInsertRows();
    return row;
}

void MessageModel::update(int row, const std::function<void(TurnItem &)> &change)
{
    if (row < 0 || row >= m_items.size())
        return;
    change(m_items[row]);
    const QModelIndex changed = index(row);
    Q_EMIT dataChanged(changed, changed);
}

void MessageModel::appendToStream(int row, const QString &text, const QString &reasoning)
{
    if (row < 0 || row >= m_items.size() || !m_items.at(row).isStreaming())
        return;
    m_items[row].message.content += text;
    m_items[row].message.reasoning += reasoning;
    Q_EMIT streamAppended(row, text, reasoning);
    const QModelIndex changed = index(row);
    Q_EMIT dataChanged(changed, changed);
}

void MessageModel::remove(int row)
{
    if (row < 0 || row >= m_items.size())
        return;
    beginRemoveRows({}, row, row);
    m_items.removeAt(row);
    endRemoveRows();
}

QList<TurnItem> MessageModel::itemsFromHistory(const QList<ChatMessage> &messages,
                                               const QList<StoredExecution> &executions)
{
    QHash<CallKey, const StoredExecution *> executionOfCall;
    for (const StoredExecution &execution : executions) {
        if (execution.call.isValid())
            executionOfCall.insert(execution.call, &execution);
    }
    QList<TurnItem> items;
    QHash<CallKey, qsizetype> itemOfCall;
    const QList<CallKey> answered = ChatMessage::answeredCalls(messages);
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const ChatMessage &message = messages.at(i);
        switch (message.role) {
        case ChatMessage::Role::System:
            break;
        case ChatMessage::Role::Tool: {
            const auto found = itemOfCall.constFind(answered.at(i));
            if (found == itemOfCall.cend())
                break;
            TurnItem &call = items[*found];
            call.modelText = message.content;
            call.message = message;
            if (call.toolState == TurnItem::ToolState::Interrupted) {
                call.toolState = stateFromToolMessage(message.content);
                call.success = call.toolState == TurnItem::ToolState::Finished;
            }
            break;
        }
        case ChatMessage::Role::User:
        case ChatMessage::Role::Assistant: {
            const CallKey userRun{message.id, 0};
            if (const StoredExecution *run = executionOfCall.value(userRun);
                run && run->origin == RunOrigin::User && message.role == ChatMessage::Role::User) {
                // The user's own run shows as the run, as it did when it happened.
                TurnItem item;
                item.kind = TurnItem::Kind::ToolCall;
                item.callKey = userRun;
                item.call.name = PythonTool::toolName();
                item.origin = RunOrigin::User;
                item.message = message;
                item.preview = run->code;
                item.result = run->result;
                item.toolState = TurnItem::ToolState::Finished;
                item.success = run->result.status == ExecutionResult::Status::Ok;
                items.append(item);
                break;
            }
            if (!TurnItem::showsAsItsCalls(message)) {
                TurnItem item;
                item.kind = TurnItem::Kind::Message;
                item.message = message;
                items.append(item);
            }
            for (int index = 0; index < message.toolCalls.size(); ++index) {
                const ToolCall &call = message.toolCalls.at(index);
                TurnItem item;
                item.kind = TurnItem::Kind::ToolCall;
                item.callKey = {message.id, index};
                item.call = call;
                // Until its tool message says otherwise: an answer whose calls never got one was
                // cut short (the store supplies the message when it recovers).
                item.toolState = TurnItem::ToolState::Interrupted;
                if (const StoredExecution *execution = executionOfCall.value(item.callKey)) {
                    item.preview = execution->code;
                    item.result = execution->result;
                    item.toolState = TurnItem::ToolState::Finished;
                    item.success = execution->result.status == ExecutionResult::Status::Ok;
                } else if (call.name == ChartTool::toolName()) {
                    if (const auto spec = ChartSpec::fromToolArguments(call.arguments))
                        item.result = ChartResult{spec->toJson()};
                }
                itemOfCall.insert(item.callKey, items.size());
                items.append(item);
            }
            break;
        }
        }
    }
    return items;
}

} // namespace Sandpiper
