#pragma once

#include "llm/callkey.h"
#include "sandbox/executionresult.h"
#include "tools/toolresult.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>

#include <optional>

namespace Sandpiper {

// One run of code in a conversation's sandbox, as the inspector shows it. A value type.
struct StoredExecution {
    // Model: the model called the tool, call says which call; User: the user ran (or re-ran) code
    // from the inspector, call is the user message that told the model (index 0).
    using Origin = RunOrigin;

    qint64 id = 0; // row in the store; 0 until stored
    qint64 conversationId = 0;
    CallKey call;       // invalid for runs stored before calls had keys that could not be matched
    QString toolCallId; // the server's id of the call, for exports; empty for user runs
    QString code;
    Origin origin = Origin::Model;
    ExecutionResult result;
    QDateTime created;

    static QString originName(Origin origin);
    static std::optional<Origin> originFromName(QStringView name);
    // ExecutionResult has no inverse of statusName; the store and imports need one.
    static std::optional<ExecutionResult::Status> statusFromName(QStringView name);
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::StoredExecution)
