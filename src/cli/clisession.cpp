#include "clisession.h"

#include "mcp/mcptoolname.h"
#include "session/conversationsession.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <unistd.h>

namespace Sandpiper {

namespace {

void write(FILE *stream, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

const char *dim(FILE *stream)
{
    return isatty(fileno(stream)) ? "\033[2m" : "";
}

const char *plain(FILE *stream)
{
    return isatty(fileno(stream)) ? "\033[0m" : "";
}

} // namespace

CliSession::CliSession(ConversationSession *session, Output output, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_output(output)
    , m_folder(session->folder())
{
    connect(session, &ConversationSession::agentEvent, this, &CliSession::handle);
}

void CliSession::handle(const AgentEvent &event)
{
    // The turn's end is the last thing said: what the agent learns later (the window of a server
    // that answered its probe late) belongs to no turn of this command.
    if (m_turnEnded)
        return;
    if (m_output == Output::Json)
        printJson(event);
    else
        printText(event);

    if (event.kind == AgentEvent::Kind::ApprovalNeeded)
        askApproval(event);
    if (event.kind == AgentEvent::Kind::TurnFinished) {
        m_turnEnded = true;
        switch (event.end) {
        case AgentEvent::End::Completed:
        case AgentEvent::End::RoundLimit:
            m_exitCode = 0;
            break;
        case AgentEvent::End::Cancelled:
            m_exitCode = 130;
            break;
        case AgentEvent::End::Failed:
            m_exitCode = 1;
            break;
        }
        Q_EMIT finished();
    }
}

void CliSession::printJson(const AgentEvent &event)
{
    QJsonObject object{{QStringLiteral("event"), AgentEvent::kindName(event.kind)}};
    if (!event.text.isEmpty())
        object.insert(QStringLiteral("text"), event.text);
    if (event.key.isValid() || !event.call.id.isEmpty() || !event.call.name.isEmpty()) {
        QJsonObject call{{QStringLiteral("id"), event.call.id},
                         {QStringLiteral("name"), event.call.name},
                         {QStringLiteral("arguments"), event.call.arguments}};
        // The server's id is unique within one answer only: the answer's row and the call's place
        // there say which call it is.
        if (event.key.isValid()) {
            call.insert(QStringLiteral("message"), event.key.messageId);
            call.insert(QStringLiteral("index"), event.key.index);
        }
        object.insert(QStringLiteral("call"), call);
    }
    if (!event.preview.isEmpty())
        object.insert(QStringLiteral("code"), event.preview);
    if (!event.stream.isEmpty())
        object.insert(QStringLiteral("stream"), event.stream);
    if (const ExecutionResult *execution = event.execution()) {
        const ExecutionResult &r = *execution;
        QJsonArray figures;
        for (const QString &figure : r.figures)
            figures.append(QString(m_folder + QLatin1Char('/') + figure));
        QJsonArray tables;
        for (const DataTable &table : r.tables)
            tables.append(table.toCliJson());
        object.insert(QStringLiteral("execution"),
                      QJsonObject{{QStringLiteral("status"), ExecutionResult::statusName(r.status)},
                                  {QStringLiteral("stdout"), r.standardOutput},
                                  {QStringLiteral("stderr"), r.standardError},
                                  {QStringLiteral("value"), r.value},
                                  {QStringLiteral("error_type"), r.errorType},
                                  {QStringLiteral("error_message"), r.errorMessage},
                                  {QStringLiteral("duration_ms"), r.durationMs},
                                  {QStringLiteral("figures"), figures},
                                  {QStringLiteral("tables"), tables},
                                  {QStringLiteral("files"), QJsonArray::fromStringList(r.files)}});
    }
    if (event.kind == AgentEvent::Kind::Usage) {
        object.insert(QStringLiteral("usage"),
                      QJsonObject{{QStringLiteral("prompt_tokens"), event.usage.promptTokens},
                                  {QStringLiteral("completion_tokens"), event.usage.completionTokens},
                                  {QStringLiteral("total_tokens"), event.usage.totalTokens}});
    }
    if (event.kind == AgentEvent::Kind::Context) {
        object.insert(QStringLiteral("context"),
                      QJsonObject{{QStringLiteral("tokens"), event.context.tokens},
                                  {QStringLiteral("window"), event.context.window},
                                  {QStringLiteral("exact"), event.context.exact},
                                  {QStringLiteral("window_source"), event.context.windowSource},
                                  {QStringLiteral("left_out"), event.context.leftOut}});
    }
    if (event.kind == AgentEvent::Kind::MessageAdded) {
        object.insert(QStringLiteral("message"), event.message.toOpenAi());
        object.insert(QStringLiteral("status"), ChatMessage::statusName(event.message.status));
    }
    if (event.kind == AgentEvent::Kind::RestoreOffered || event.kind == AgentEvent::Kind::RestoreProgress ||
        event.kind == AgentEvent::Kind::RestoreFinished) {
        const KernelRestore &r = event.restore;
        object.insert(QStringLiteral("restore"),
                      QJsonObject{{QStringLiteral("reason"), r.reason},
                                  {QStringLiteral("cells"), r.cells},
                                  {QStringLiteral("done"), r.done},
                                  {QStringLiteral("restored"), r.restored},
                                  {QStringLiteral("skipped"), r.skipped},
                                  {QStringLiteral("stopped"), r.stopped},
                                  {QStringLiteral("writers"), QJsonArray::fromStringList(r.writers)},
                                  {QStringLiteral("failures"), QJsonArray::fromStringList(r.failures)}});
    }
    if (event.kind == AgentEvent::Kind::TurnFinished)
        object.insert(QStringLiteral("end"), AgentEvent::endName(event.end));
    if (event.kind == AgentEvent::Kind::ToolProgress) {
        object.insert(QStringLiteral("progress"), event.progress);
        object.insert(QStringLiteral("total"), event.progressTotal);
    }
    write(stdout, QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)) + QLatin1Char('\n'));
}

void CliSession::printText(const AgentEvent &event)
{
    auto newline = [this] {
        if (m_midLine)
            write(stdout, QStringLiteral("\n"));
        m_midLine = false;
    };
    // Everything the model or the sandbox wrote goes through a filter; only Sandpiper's own
    // dimming reaches the terminal as a control sequence.
    const auto clean = &TerminalFilter::clean;
    auto stream = [this](TerminalFilter &filter, FILE *target, const QString &text) {
        const QString shown = filter.filter(text);
        write(target, shown);
        if (!shown.isEmpty())
            m_midLine = !shown.endsWith(QLatin1Char('\n'));
    };
    switch (event.kind) {
    case AgentEvent::Kind::ReasoningDelta:
        if (!m_inReasoning)
            write(stderr, QStringLiteral("%1Thinking: ").arg(QLatin1String(dim(stderr))));
        m_inReasoning = true;
        write(stderr, m_reasoningFilter.filter(event.text));
        break;
    case AgentEvent::Kind::TextDelta:
        if (m_inReasoning) {
            m_reasoningFilter.reset();
            write(stderr, QStringLiteral("%1\n").arg(QLatin1String(plain(stderr))));
            m_inReasoning = false;
        }
        stream(m_textFilter, stdout, event.text);
        break;
    case AgentEvent::Kind::ToolStarted:
        newline();
        m_textFilter.reset();
        write(stdout, QStringLiteral("\n▶ %1\n%2%3%4\n")
                          .arg(clean(event.call.name), QLatin1String(dim(stdout)), clean(event.preview),
                               QLatin1String(plain(stdout))));
        write(stdout, QStringLiteral("───\n"));
        break;
    case AgentEvent::Kind::ToolProgress:
        newline();
        write(stderr, event.progressTotal > 0
                          ? QStringLiteral("progress: %1 of %2 %3\n")
                                .arg(event.progress)
                                .arg(event.progressTotal)
                                .arg(clean(event.text))
                          : QStringLiteral("progress: %1 %2\n").arg(event.progress).arg(clean(event.text)));
        break;
    case AgentEvent::Kind::ToolOutput:
        if (event.stream == QLatin1String("stderr"))
            stream(m_stderrFilter, stderr, event.text);
        else
            stream(m_stdoutFilter, stdout, event.text);
        break;
    case AgentEvent::Kind::ToolFinished: {
        newline();
        m_stdoutFilter.reset();
        m_stderrFilter.reset();
        const ExecutionResult *execution = event.execution();
        if (!execution) {
            write(stdout, QStringLiteral("◀ %1: %2\n\n").arg(clean(event.call.name), clean(event.text)));
            break;
        }
        const ExecutionResult &r = *execution;
        if (!r.value.isEmpty())
            write(stdout, QStringLiteral("%1\n").arg(clean(r.value)));
        if (!r.errorType.isEmpty() || r.status == ExecutionResult::Status::Crashed ||
            r.status == ExecutionResult::Status::Unavailable)
            write(stdout, clean(QStringLiteral("%1%2: %3\n")
                                    .arg(r.traceback.isEmpty() ? QString() : r.traceback + QLatin1Char('\n'),
                                         r.errorType.isEmpty() ? ExecutionResult::statusName(r.status) : r.errorType,
                                         r.errorMessage)));
        for (const QString &figure : r.figures)
            write(stdout, QStringLiteral("Figure: %1/%2\n").arg(m_folder, clean(figure)));
        if (r.figuresNotKept > 0)
            write(stdout, QStringLiteral("Figures not kept (too many for one run): %1\n").arg(r.figuresNotKept));
        for (const QString &file : r.files)
            write(stdout, QStringLiteral("File: %1/%2\n").arg(m_folder, clean(file)));
        if (!r.stopReason.isEmpty())
            write(stderr, QStringLiteral("note: %1\n").arg(clean(r.stopReason)));
        for (const QString &refused : r.refused)
            write(stderr, QStringLiteral("refused: %1\n").arg(clean(refused)));
        const QString duration = r.durationMs < 1000
                                     ? QStringLiteral("%1 ms").arg(r.durationMs)
                                     : QStringLiteral("%1 s").arg(double(r.durationMs) / 1000.0, 0, 'f', 2);
        write(stdout, QStringLiteral("◀ %1 · %2\n\n").arg(ExecutionResult::statusName(r.status), duration));
        break;
    }
    case AgentEvent::Kind::ToolCallProposed:
    case AgentEvent::Kind::TitleChanged:
    case AgentEvent::Kind::KernelChanged:
    case AgentEvent::Kind::TableExported:
    case AgentEvent::Kind::Usage:
    case AgentEvent::Kind::TurnStarted:
    case AgentEvent::Kind::MessageAdded:
    case AgentEvent::Kind::ApprovalNeeded:
        break;
    case AgentEvent::Kind::RestoreOffered:
        if (event.restore.cells == 0)
            break;
        newline();
        if (event.restore.branch)
            write(stderr, QStringLiteral("note: the Python kernel holds another branch's variables; %1 cells of this "
                                         "branch were not run again (the sandbox may reach the network)\n")
                              .arg(event.restore.cells));
        else
            write(stderr, QStringLiteral("note: the Python kernel is new (%1); what %2 earlier cells defined is gone "
                                         "(--set sandbox/restore_variables=true brings it back before code runs)\n")
                              .arg(clean(event.restore.reason))
                              .arg(event.restore.cells));
        break;
    case AgentEvent::Kind::RestoreProgress:
        // The first report of a replay names no cell yet.
        if (event.text.isEmpty())
            break;
        newline();
        write(stderr, QStringLiteral("%1: %2 of %3: %4\n")
                          .arg(event.restore.branch ? QStringLiteral("bringing the sandbox to this branch")
                                                    : QStringLiteral("restoring variables"))
                          .arg(event.restore.done + 1)
                          .arg(event.restore.cells)
                          .arg(clean(event.text)));
        break;
    case AgentEvent::Kind::RestoreFinished:
    case AgentEvent::Kind::Retrying:
    case AgentEvent::Kind::Notice:
        newline();
        write(stderr, QStringLiteral("note: %1\n").arg(clean(event.text)));
        break;
    case AgentEvent::Kind::Context:
        // Only what the user should know: the share of the window is for --json and the app.
        if (!event.context.leftOut.isEmpty()) {
            newline();
            write(stderr, QStringLiteral("note: %1\n").arg(clean(event.context.leftOut)));
        }
        break;
    case AgentEvent::Kind::Error:
    case AgentEvent::Kind::SendRefused:
        newline();
        write(stderr, QStringLiteral("error: %1\n").arg(clean(event.text)));
        break;
    case AgentEvent::Kind::TurnFinished:
        newline();
        for (TerminalFilter *filter : {&m_textFilter, &m_reasoningFilter, &m_stdoutFilter, &m_stderrFilter})
            filter->reset();
        break;
    }
}

void CliSession::askApproval(const AgentEvent &event)
{
    // The prompt may have come on standard input, so ask on the terminal itself.
    QFile terminal(QStringLiteral("/dev/tty"));
    if (!terminal.open(QIODevice::ReadWrite)) {
        const QString reason = QStringLiteral("there is no terminal to ask for approval (use --approve auto)");
        write(stderr, QStringLiteral("note: not running %1: %2\n").arg(event.call.name, reason));
        m_session->deny(event.key, reason);
        return;
    }
    QTextStream tty(&terminal);
    // "Always" for an MCP tool is kept in the settings, for every conversation.
    const QString always = McpToolName::isMcp(event.call.name) ? QStringLiteral("[a]lways (kept in the settings)")
                                                               : QStringLiteral("[a]lways in this conversation");
    tty << QStringLiteral("\n%1 wants to run:\n%2\nRun it? [y]es, [n]o, %3: ")
               .arg(TerminalFilter::clean(event.call.name), TerminalFilter::clean(event.preview), always);
    tty.flush();
    const QString answer = tty.readLine().trimmed().toLower();
    if (answer.startsWith(QLatin1Char('a')))
        m_session->alwaysAllow(event.key);
    else if (answer.startsWith(QLatin1Char('y')))
        m_session->approve(event.key);
    else
        m_session->deny(event.key, QString());
}

} // namespace Sandpiper
