#pragma once

#include "agent/agentevent.h"
#include "terminalfilter.h"

#include <QObject>

#include <cstdio>
#include <memory>

namespace Sandpiper {

class ConversationSession;

// Prints one turn of a conversation's session to the terminal (or as JSON lines) and answers
// its approval requests from the keyboard. Text output carries no control sequence of the model
// or the sandbox (TerminalFilter); JSON output is exact.
class CliSession : public QObject
{
    Q_OBJECT

public:
    enum class Output { Text, Json };

    CliSession(ConversationSession *session, Output output, QObject *parent = nullptr);

    // The process exit code once the turn finished.
    int exitCode() const { return m_exitCode; }

Q_SIGNALS:
    void finished();

private:
    void handle(const AgentEvent &event);
    void printJson(const AgentEvent &event);
    void printText(const AgentEvent &event);
    void askApproval(const AgentEvent &event);

    ConversationSession *m_session;
    Output m_output;
    QString m_folder;
    int m_exitCode = 1;
    bool m_midLine = false; // the last thing printed did not end with a newline
    bool m_inReasoning = false;
    bool m_turnEnded = false;
    // One per stream, since a sequence may be split across its deltas.
    TerminalFilter m_textFilter;
    TerminalFilter m_reasoningFilter;
    TerminalFilter m_stdoutFilter;
    TerminalFilter m_stderrFilter;
};

} // namespace Sandpiper
