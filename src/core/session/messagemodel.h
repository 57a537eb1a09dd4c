#pragma once

#include "session/turnitem.h"

#include <QAbstractListModel>

#include <functional>

namespace Sandpiper {

struct StoredExecution;

// The turn items of one conversation, oldest first: what the chat view shows. Views read it;
// only the Transcript of the conversation's ConversationSession changes it.
class MessageModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        KindRole = Qt::UserRole + 1, // TurnItem::Kind as int
        KeyRole,
        MessageIdRole, // messages: their row in the store
        CallKeyRole,   // tool calls: their CallKey
        StreamingRole, // an answer that is still being written
    };

    using QAbstractListModel::QAbstractListModel;

    const TurnItem &item(int row) const { return m_items.at(row); }
    int rowOfKey(qint64 key) const;
    // The row of call KEY (a call of the model or a run of the user's), -1 if there is none.
    int rowOfCall(const CallKey &key) const;
    // The row of the answer that is streaming, -1 if none.
    int streamingRow() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // The items of a stored conversation: each message, each tool call with its stored
    // execution, result and state as they were left, and each run of the user's own code as a
    // call in place of the message that told the model about it.
    static QList<TurnItem> itemsFromHistory(const QList<ChatMessage> &messages,
                                            const QList<StoredExecution> &executions);

Q_SIGNALS:
    // TEXT and REASONING came to the end of the streaming answer at ROW (what one frame
    // collected). Views append them as they are; dataChanged for the row follows.
    void streamAppended(int row, const QString &text, const QString &reasoning);

private:
    friend class Transcript;

    void reset(QList<TurnItem> items);
    int append(TurnItem item);
    // Changes the item at ROW in place and tells the views; nothing for a row that is not there.
    void update(int row, const std::function<void(TurnItem &)> &change);
    // Appends to the content and reasoning of the streaming answer at ROW and says what came.
    void appendToStream(int row, const QString &text, const QString &reasoning);
    void remove(int row);

    QList<TurnItem> m_items;
    qint64 m_nextKey = 1;
};

} // namespace Sandpiper
