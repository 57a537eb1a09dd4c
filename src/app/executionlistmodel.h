#pragma once

#include <storage/storedexecution.h>

#include <QAbstractListModel>

namespace Sandpiper {

// Every execution of the conversation, newest first, including the one running now.
class ExecutionListModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles { CallIdRole = Qt::UserRole + 1 };

    struct Item {
        QString callId; // empty for the user's own runs
        QString code;
        std::optional<ExecutionResult> result; // unset while it runs
        QString liveStdout;
        QString liveStderr;
        bool byUser = false;
    };

    using QAbstractListModel::QAbstractListModel;

    void setExecutions(const QList<StoredExecution> &executions);
    // A running execution at the top; returns its row.
    int addRunning(const QString &callId, const QString &code, bool byUser);
    void appendOutput(const QString &callId, const QString &stream, const QString &text);
    void finish(const QString &callId, const ExecutionResult &result);
    int rowOf(const QString &callId) const;
    // The status as the user reads it (translated), e.g. "ok", "error", "crashed".
    static QString statusLabel(ExecutionResult::Status status);
    const Item &item(int row) const { return m_items.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    QList<Item> m_items;
};

} // namespace Sandpiper
