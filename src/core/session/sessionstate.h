#pragma once

#include "agent/kernelrestore.h"

#include <QString>
#include <QStringList>

namespace Sandpiper {

// What a conversation is doing and what it has used, as the composer and the status bar show it.
// A value type; ConversationSession keeps the one current copy.
struct SessionState {
    enum class Phase {
        Idle,
        Waiting,          // the request is out, nothing has come back yet
        Thinking,         // reasoning streams in
        Writing,          // the answer streams in
        AwaitingApproval, // a tool call waits for the user
        RunningTool,      // a tool runs (the model's call or the user's own code)
        Retrying,         // the provider failed; the next try is scheduled
    };

    Phase phase = Phase::Idle;
    QString title;
    QString providerId;
    QString model;     // the model the next request goes to
    qint64 tokens = 0; // used by this conversation's answers
    // The last request's estimated size and the model's window, 0 when unknown.
    qint64 contextTokens = 0;
    qint64 contextWindow = 0;
    bool kernelAlive = false;       // the conversation's Python kernel runs
    bool networkAllowed = false;    // the sandbox may reach the network
    QStringList pendingAttachments; // file names in the conversation's folder, sent with the next message
    QStringList pendingImages;      // the same for images the next message shows the model
    // The kernel is new and earlier cells could bring its variables back: the offer while
    // restoreOffered, the replay's progress while restoring (restoringCell: the one running).
    KernelRestore restore;
    bool restoreOffered = false;
    bool restoring = false;
    QString restoringCell;
    // Before the request goes out: what it waits for (the model on this computer loading), or empty.
    QString preparing;

    bool busy() const { return phase != Phase::Idle; }
    friend bool operator==(const SessionState &, const SessionState &) = default;
};

} // namespace Sandpiper
