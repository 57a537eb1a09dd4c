#pragma once

#include "storage/storedexecution.h"

#include <QAbstractListModel>

namespace Sandpiper {

// Every execution of a conversation, newest first, including the one running now: what the
// code inspector shows. Views read it; only the Transcript of the conversation's
// ConversationSession changes it.
class ExecutionModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles {
        CallKeyRole = Qt::UserRole + 1, // a CallKey: the card of the run in the chat
        OriginRole,
    };

    struct Item {
        CallKey call; // invalid for runs stored before runs had keys, when none could be found
        QString code;
        std::optional<ExecutionResult> result; // unset while it runs
        QString liveStdout;
        QString liveStderr;
        RunOrigin origin = RunOrigin::Model;
    };

    using QAbstractListModel::QAbstractListModel;

    int rowOf(const CallKey &call) const;
    // What the inspector keeps of a running execution's output, per stream (as a terminal shows it).
    static constexpr qsizetype liveOutputKept = 1024 * 1024;
    const Item &item(int row) const { return m_items.at(row); }
    // The status as the user reads it (translated), e.g. "ok", "error", "crashed".
    static QString statusLabel(ExecutionResult::Status status);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    friend class Transcript;

    void setExecutions(const QList<StoredExecution> &executions);
    // A running execution at the top; returns its row.
    int addRunning(const CallKey &call, const QString &code, RunOrigin origin);
    void appendOutput(const CallKey &call, const QString &stream, const QString &text);
    void finish(const CallKey &call, const ExecutionResult &result);

    QList<Item> m_items;
};

} // namespace Sandpiper
