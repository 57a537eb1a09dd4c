#pragma once

#include <QMetaType>
#include <QString>

namespace Sandpiper {

// How much of the model's context window a request takes, reported before it is sent (the
// status bar's "3.1k / 8k"), and what had to be left out of it to fit.
struct ContextUse {
    qint64 tokens = 0; // the request, estimated or (where EXACT) counted by the server
    qint64 window = 0; // the model's context window in tokens
    bool exact = false;
    // Where the window came from, such as "/props" or "settings"; empty when it is assumed.
    QString windowSource;
    // For the user: what this request leaves out to fit, empty when nothing. The stored
    // conversation is never changed by it.
    QString leftOut;

    friend bool operator==(const ContextUse &, const ContextUse &) = default;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::ContextUse)
