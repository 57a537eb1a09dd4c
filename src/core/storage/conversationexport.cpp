#include "storage/conversationexport.h"

#include "charts/chartspec.h"
#include "llm/modelimage.h"
#include "sandbox/sandboxfigure.h"
#include "sandbox/sandboxfolder.h"
#include "tools/charttool.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSet>
#include <QUrl>

#include <algorithm>

namespace Sandpiper::ConversationExport {

namespace {

// Rows of a table written into a Markdown export; the JSON export keeps all the chat had.
constexpr int exportedTableRows = 50;

QJsonValue isoTime(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue(QJsonValue::Null);
}

QString displayTime(const QDateTime &time)
{
    return time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

class MarkdownWriter
{
public:
    MarkdownWriter(const ConversationSnapshot &snapshot, const QString &conversationFolder, const QString &filePath,
                   const MarkdownOptions &options)
        : m_snapshot(snapshot)
        , m_options(options)
        , m_folder(conversationFolder)
        , m_filesFolderName(QFileInfo(filePath).completeBaseName() + QLatin1String("_files"))
        , m_filesFolder(QFileInfo(filePath).dir().filePath(m_filesFolderName))
    {
        for (const StoredExecution &execution : snapshot.executions) {
            if (execution.origin == RunOrigin::Model && execution.call.isValid())
                m_executionsByCall.insert(execution.call, &execution);
        }
    }

    QString write()
    {
        const Conversation &conversation = m_snapshot.conversation;
        m_text += QLatin1String("# ") +
                  (conversation.title.isEmpty() ? QStringLiteral("Untitled conversation") : conversation.title) +
                  QLatin1String("\n\n");
        if (const QString about = aboutLine(conversation); !about.isEmpty())
            m_text += QLatin1Char('*') + about + QLatin1String("*\n\n");

        forEachInOrder(
            m_snapshot,
            [this](const ChatMessage &message, const CallKey &answered) { writeMessage(message, answered); },
            [this](const StoredExecution &execution) { writeUserRun(execution); });
        return m_text;
    }

    const QString &error() const { return m_error; }

private:
    void writeMessage(const ChatMessage &message, const CallKey &answered)
    {
        switch (message.role) {
        case ChatMessage::Role::System:
            m_text += QLatin1String("## System\n\n") + message.content + QLatin1String("\n\n");
            break;
        case ChatMessage::Role::User:
            m_text += QLatin1String("## You\n\n") + message.content + QLatin1String("\n\n");
            if (!message.attachments.isEmpty()) {
                QStringList files;
                for (const AttachedFile &file : message.attachments)
                    files << QLatin1Char('`') + file.name + QLatin1Char('`') +
                                 (file.size > 0
                                      ? QLatin1String(" (") + SandboxFolder::formatBytes(file.size) + QLatin1Char(')')
                                      : QString());
                m_text += QLatin1String("*Attached:* ") + files.join(QLatin1String(", ")) + QLatin1String("\n\n");
            }
            for (const QString &image : message.images) {
                // Checked as an image at this moment (the sandbox can write there), then copied.
                QString problem;
                ModelImage::readOriginal(m_folder, image, &problem);
                writeCopy(image, problem, QLatin1StringView("an image"));
            }
            break;
        case ChatMessage::Role::Assistant:
            writeAssistant(message);
            break;
        case ChatMessage::Role::Tool:
            // A run of code shows as the execution under its call; other tools show their answer.
            if (!m_executionsByCall.contains(answered)) {
                m_text += QLatin1String("**Result") +
                          (message.toolName.isEmpty() ? QString() : QLatin1String(" of ") + message.toolName) +
                          QLatin1String(":**\n\n") + fenced(message.content, QLatin1StringView("text"));
            }
            break;
        }
        writeStatus(message);
    }

    void writeAssistant(const ChatMessage &message)
    {
        m_text += QLatin1String("## Assistant\n\n");
        if (!message.reasoning.isEmpty()) {
            m_text += QLatin1String("<details><summary>Reasoning</summary>\n\n") + message.reasoning +
                      QLatin1String("\n\n</details>\n\n");
        }
        if (!message.content.isEmpty())
            m_text += message.content + QLatin1String("\n\n");
        for (int index = 0; index < message.toolCalls.size(); ++index) {
            const ToolCall &call = message.toolCalls.at(index);
            if (const StoredExecution *execution = m_executionsByCall.value(CallKey{message.id, index})) {
                writeExecution(*execution);
            } else if (call.name != ChartTool::toolName() || !writeChart(call)) {
                m_text += QLatin1String("**Called ") + call.name + QLatin1String(":**\n\n") +
                          fenced(call.arguments, QLatin1StringView("json"));
            }
        }
    }

    // False for a call that drew no chart; it is then shown as it was made.
    bool writeChart(const ToolCall &call)
    {
        const auto spec = ChartSpec::fromToolArguments(call.arguments);
        if (!spec)
            return false;
        QString title = spec->title.isEmpty() ? QStringLiteral("Chart") : spec->title;
        if (m_options.renderChart) {
            const QString relative = QStringLiteral("charts/chart-%1.png").arg(++m_charts);
            const QString target = QDir(m_filesFolder).filePath(relative);
            if (QDir().mkpath(QFileInfo(target).path()) && m_options.renderChart(spec->toJson(), target)) {
                title.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
                const QString link =
                    QString::fromUtf8(QUrl::toPercentEncoding(m_filesFolderName + QLatin1Char('/') + relative, "/"));
                m_text += QLatin1String("![") + title + QLatin1String("](") + link + QLatin1String(")\n\n");
                return true;
            }
        }
        m_text += QLatin1String("**Chart:** ") + title + QLatin1String("\n\n") +
                  fenced(QString::fromUtf8(QJsonDocument(spec->toJson()).toJson(QJsonDocument::Indented)),
                         QLatin1StringView("json"));
        return true;
    }

    void writeStatus(const ChatMessage &message)
    {
        switch (message.status) {
        case ChatMessage::Status::Complete:
        case ChatMessage::Status::Streaming:
            break;
        case ChatMessage::Status::Cancelled:
            m_text += QLatin1String("*Stopped by the user.*\n\n");
            break;
        case ChatMessage::Status::Interrupted:
            m_text += QLatin1String("*Interrupted: Sandpiper stopped while this was being written.*\n\n");
            break;
        case ChatMessage::Status::Error:
            m_text += QLatin1String("*Error: ") + message.error + QLatin1String("*\n\n");
            break;
        }
    }

    void writeUserRun(const StoredExecution &execution)
    {
        m_text += QLatin1String("## You ran code\n\n");
        writeExecution(execution);
    }

    void writeExecution(const StoredExecution &execution)
    {
        const ExecutionResult &result = execution.result;
        m_text += fenced(execution.code, QLatin1StringView("python"));
        if (!result.standardOutput.isEmpty())
            m_text += QLatin1String("Output:\n\n") + fenced(result.standardOutput, QLatin1StringView("text"));
        if (!result.standardError.isEmpty())
            m_text += QLatin1String("Standard error:\n\n") + fenced(result.standardError, QLatin1StringView("text"));
        if (!result.value.isEmpty())
            m_text += QLatin1String("Result:\n\n") + fenced(result.value, QLatin1StringView("text"));
        if (!result.traceback.isEmpty()) {
            m_text += QLatin1String("Error:\n\n") + fenced(result.traceback, QLatin1StringView("text"));
        } else if (!result.errorType.isEmpty() || !result.errorMessage.isEmpty()) {
            m_text += QLatin1String("Error: ") + result.errorType +
                      (result.errorType.isEmpty() || result.errorMessage.isEmpty() ? QString() : QStringLiteral(": ")) +
                      result.errorMessage + QLatin1String("\n\n");
        }
        for (const QString &markdown : result.markdown)
            m_text += markdown + QLatin1String("\n\n");
        for (const DataTable &table : result.tables)
            writeTable(table);
        for (const QString &figure : result.figures)
            writeFigure(figure);
    }

    // The rows the chat showed, as a Markdown table, and how many there are in all.
    void writeTable(const DataTable &table)
    {
        auto cell = [](QString text) {
            return text.replace(QLatin1Char('|'), QLatin1String("\\|")).simplified();
        };
        QStringList header;
        for (const QString &column : table.columns)
            header << cell(column);
        m_text += QLatin1String("| ") + header.join(QLatin1String(" | ")) + QLatin1String(" |\n|") +
                  QStringLiteral(" --- |").repeated(table.columns.size()) + QLatin1Char('\n');
        const int shown = std::min<int>(int(table.rows.size()), exportedTableRows);
        for (int row = 0; row < shown; ++row) {
            QStringList cells;
            for (int column = 0; column < table.columns.size(); ++column)
                cells << cell(table.cellText(row, column));
            m_text += QLatin1String("| ") + cells.join(QLatin1String(" | ")) + QLatin1String(" |\n");
        }
        m_text +=
            QStringLiteral("\n*%1 of %2 rows, %3 columns*\n\n").arg(shown).arg(table.totalRows).arg(table.totalColumns);
    }

    void writeFigure(const QString &figure)
    {
        // Figure names come from code the model wrote: an export copies a PNG that is inside
        // the conversation's folder at this moment, never a link's target or a host file.
        writeCopy(figure, SandboxFigure::problem(m_folder, figure), QLatin1StringView("a figure"));
    }

    // Copies NAME from the conversation's folder into the files folder and links it, or says in
    // its place why WHAT was not exported (PROBLEM).
    void writeCopy(const QString &name, const QString &problem, QLatin1StringView what)
    {
        if (!problem.isEmpty()) {
            m_text +=
                QLatin1String("*(") + what + QLatin1String(" was not exported: ") + problem + QLatin1String(")*\n\n");
            return;
        }
        const QString target = QDir(m_filesFolder).filePath(name);
        const QString copyError = QDir().mkpath(QFileInfo(target).path())
                                      ? m_folder.copyTo(name, target)
                                      : QStringLiteral("the folder %1 cannot be created")
                                            .arg(QDir::toNativeSeparators(QFileInfo(target).path()));
        if (!copyError.isEmpty()) {
            m_error = QStringLiteral("Could not export the conversation: the file %1 cannot be copied to %2: %3")
                          .arg(QDir::toNativeSeparators(m_folder.hostPath(name)), QDir::toNativeSeparators(target),
                               copyError);
            return;
        }
        const QString link =
            QString::fromUtf8(QUrl::toPercentEncoding(m_filesFolderName + QLatin1Char('/') + name, "/"));
        m_text += QLatin1String("![") +
                  QFileInfo(name).completeBaseName().remove(QLatin1Char('[')).remove(QLatin1Char(']')) +
                  QLatin1String("](") + link + QLatin1String(")\n\n");
    }

    const ConversationSnapshot &m_snapshot;
    const MarkdownOptions &m_options;
    const SandboxFolder m_folder;
    const QString m_filesFolderName;
    const QString m_filesFolder;
    QHash<CallKey, const StoredExecution *> m_executionsByCall;
    QString m_text;
    QString m_error;
    int m_charts = 0;
};

StoreResult<void> save(const QString &filePath, const QByteArray &data)
{
    QSaveFile file(filePath);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        return StoreError{StoreError::Kind::WriteFailed,
                          QStringLiteral("Could not export the conversation to %1: %2.")
                              .arg(QDir::toNativeSeparators(filePath), file.errorString())};
    }
    return {};
}

QJsonObject messageToJson(const ChatMessage &message, const SandboxFolder &folder)
{
    // The images as the user gave them, in the OpenAI vision format, their names beside.
    ChatMessage sent = message;
    QStringList names;
    QStringList notExported;
    for (const QString &image : message.images) {
        QString problem;
        if (const auto original = ModelImage::readOriginal(folder, image, &problem)) {
            sent.imageUrls << QLatin1String("data:") + original->mimeType + QLatin1String(";base64,") +
                                  QString::fromLatin1(original->bytes.toBase64());
            names << image;
        } else {
            notExported << image + QLatin1String(": ") + problem;
        }
    }
    QJsonObject object = sent.toOpenAi();
    QJsonObject extras{{QStringLiteral("status"), ChatMessage::statusName(message.status)},
                       {QStringLiteral("created"), isoTime(message.created)},
                       {QStringLiteral("updated"), isoTime(message.updated)}};
    if (!message.reasoning.isEmpty())
        extras.insert(QStringLiteral("reasoning"), message.reasoning);
    if (!message.error.isEmpty())
        extras.insert(QStringLiteral("error"), message.error);
    if (!message.toolName.isEmpty())
        extras.insert(QStringLiteral("tool_name"), message.toolName);
    if (!names.isEmpty())
        extras.insert(QStringLiteral("images"), QJsonArray::fromStringList(names));
    if (!notExported.isEmpty())
        extras.insert(QStringLiteral("images_not_exported"), QJsonArray::fromStringList(notExported));
    if (!message.usage.isEmpty()) {
        extras.insert(QStringLiteral("usage"),
                      QJsonObject{{QStringLiteral("prompt_tokens"), message.usage.promptTokens},
                                  {QStringLiteral("completion_tokens"), message.usage.completionTokens},
                                  {QStringLiteral("total_tokens"), message.usage.totalTokens}});
    }
    object.insert(QStringLiteral("sandpiper"), extras);
    return object;
}

// MESSAGE: the place (from 1) in the file's messages of the message that holds the execution's
// call, 0 when there is none.
QJsonObject executionToJson(const StoredExecution &execution, qsizetype message)
{
    const ExecutionResult &result = execution.result;
    QJsonObject object{
        {QStringLiteral("tool_call_id"),
         execution.toolCallId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(execution.toolCallId)},
        {QStringLiteral("origin"), StoredExecution::originName(execution.origin)},
        {QStringLiteral("code"), execution.code},
        {QStringLiteral("status"), ExecutionResult::statusName(result.status)},
        {QStringLiteral("stdout"), result.standardOutput},
        {QStringLiteral("stderr"), result.standardError},
        {QStringLiteral("value"), result.value},
        {QStringLiteral("error_type"), result.errorType},
        {QStringLiteral("error_message"), result.errorMessage},
        {QStringLiteral("traceback"), result.traceback},
        {QStringLiteral("dropped_stdout_bytes"), result.droppedStdoutBytes},
        {QStringLiteral("dropped_stderr_bytes"), result.droppedStderrBytes},
        {QStringLiteral("duration_ms"), result.durationMs},
        {QStringLiteral("timed_out"), result.timedOut},
        {QStringLiteral("state_lost"), result.stateLost},
        {QStringLiteral("state_reset"), result.stateReset},
        {QStringLiteral("figures"), QJsonArray::fromStringList(result.figures)},
        {QStringLiteral("files"), QJsonArray::fromStringList(result.files)},
        {QStringLiteral("figures_not_kept"), result.figuresNotKept},
        {QStringLiteral("refused"), QJsonArray::fromStringList(result.refused)},
        {QStringLiteral("stop_reason"), result.stopReason},
        {QStringLiteral("created"), isoTime(execution.created)},
        {QStringLiteral("rich_output"), result.richOutputJson()},
    };
    if (message > 0 && execution.call.isValid()) {
        object.insert(QStringLiteral("message"), message);
        object.insert(QStringLiteral("call_index"), execution.call.index);
    }
    return object;
}

} // namespace

QString aboutLine(const Conversation &conversation)
{
    QStringList about;
    if (!conversation.model.isEmpty())
        about << conversation.model;
    if (!conversation.provider.isEmpty())
        about << conversation.provider;
    if (conversation.created.isValid())
        about << displayTime(conversation.created);
    return about.join(QStringLiteral(" · "));
}

void forEachInOrder(const ConversationSnapshot &snapshot,
                    const std::function<void(const ChatMessage &, const CallKey &answered)> &onMessage,
                    const std::function<void(const StoredExecution &)> &onUserRun)
{
    // Code the user ran from the inspector has no tool call: it goes where the message that told
    // the model about it is, or where it happened.
    QHash<qint64, const StoredExecution *> userRunOfMessage;
    QList<const StoredExecution *> userRuns;
    for (const StoredExecution &execution : snapshot.executions) {
        if (execution.origin != RunOrigin::User)
            continue;
        if (execution.call.isValid())
            userRunOfMessage.insert(execution.call.messageId, &execution);
        else
            userRuns << &execution;
    }
    const QList<CallKey> answered = ChatMessage::answeredCalls(snapshot.messages);
    auto nextUserRun = userRuns.cbegin();
    for (qsizetype i = 0; i < snapshot.messages.size(); ++i) {
        const ChatMessage &message = snapshot.messages.at(i);
        for (; nextUserRun != userRuns.cend() && (*nextUserRun)->created < message.created; ++nextUserRun)
            onUserRun(**nextUserRun);
        if (const StoredExecution *run = userRunOfMessage.value(message.id);
            run && message.role == ChatMessage::Role::User)
            onUserRun(*run);
        else
            onMessage(message, answered.at(i));
    }
    for (; nextUserRun != userRuns.cend(); ++nextUserRun)
        onUserRun(**nextUserRun);
}

QString fenced(const QString &text, QLatin1StringView language)
{
    qsizetype longest = 0;
    qsizetype run = 0;
    for (const QChar c : text) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(std::max<qsizetype>(3, longest + 1), QLatin1Char('`'));
    QString body = text;
    if (!body.endsWith(QLatin1Char('\n')))
        body += QLatin1Char('\n');
    return fence + language + QLatin1Char('\n') + body + fence + QLatin1String("\n\n");
}

StoreResult<void> writeMarkdown(const ConversationSnapshot &snapshot, const QString &conversationFolder,
                                const QString &filePath, const MarkdownOptions &options)
{
    MarkdownWriter writer(snapshot, conversationFolder, filePath, options);
    const QString text = writer.write();
    if (!writer.error().isEmpty())
        return StoreError{StoreError::Kind::WriteFailed, writer.error()};
    return save(filePath, text.toUtf8());
}

QJsonObject toJson(const ConversationSnapshot &snapshot, const QString &conversationFolder)
{
    const Conversation &conversation = snapshot.conversation;
    const SandboxFolder folder(conversationFolder);
    const bool tree = snapshot.tree.size() > snapshot.messages.size();
    QSet<qint64> shown;
    for (const ChatMessage &message : snapshot.messages)
        shown.insert(message.id);
    QJsonArray messages;
    QHash<qint64, qsizetype> placeOfMessage;
    qint64 previous = 0;
    for (const ChatMessage &message : tree ? snapshot.tree : snapshot.messages) {
        QJsonObject object = messageToJson(message, folder);
        if (tree) {
            QJsonObject extras = object.value(QLatin1String("sandpiper")).toObject();
            if (message.parentId != previous && placeOfMessage.contains(message.parentId))
                extras.insert(QStringLiteral("parent"), placeOfMessage.value(message.parentId));
            else if (message.parentId != previous)
                extras.insert(QStringLiteral("parent"), 0);
            if (!shown.contains(message.id))
                extras.insert(QStringLiteral("shown"), false);
            object.insert(QStringLiteral("sandpiper"), extras);
        }
        messages.append(object);
        placeOfMessage.insert(message.id, messages.size());
        previous = message.id;
    }
    QJsonArray executions;
    for (const StoredExecution &execution : tree ? snapshot.allExecutions : snapshot.executions)
        executions.append(executionToJson(execution, placeOfMessage.value(execution.call.messageId)));
    return {
        {QStringLiteral("format"), Format},
        {QStringLiteral("version"), tree ? FormatVersion : LinearFormatVersion},
        {QStringLiteral("title"), conversation.title},
        {QStringLiteral("created"), isoTime(conversation.created)},
        {QStringLiteral("updated"), isoTime(conversation.updated)},
        {QStringLiteral("provider"), conversation.provider},
        {QStringLiteral("model"), conversation.model},
        {QStringLiteral("settings"), conversation.settings},
        {QStringLiteral("messages"), messages},
        {QStringLiteral("executions"), executions},
    };
}

StoreResult<void> writeJson(const ConversationSnapshot &snapshot, const QString &conversationFolder,
                            const QString &filePath)
{
    return save(filePath, QJsonDocument(toJson(snapshot, conversationFolder)).toJson(QJsonDocument::Indented));
}

} // namespace Sandpiper::ConversationExport
