#include "storage/conversationimport.h"

#include "llm/modelimage.h"
#include "sandbox/sandboxfolder.h"
#include "storage/conversationexport.h"
#include "storage/conversationstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <optional>

namespace Sandpiper::ConversationImport {

namespace {

using Error = std::optional<QString>;

StoreError invalid(const QString &message)
{
    return {StoreError::Kind::InvalidInput, message};
}

QString quoted(const QJsonValue &value)
{
    if (value.isString())
        return QLatin1Char('"') + value.toString() + QLatin1Char('"');
    if (value.isUndefined())
        return QStringLiteral("missing");
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

// Times are optional (an older or hand-made file may lack them); present ones must parse.
Error readTime(const QJsonObject &object, QLatin1StringView key, const QString &where, QDateTime &time)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    time = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
    if (!value.isString() || !time.isValid())
        return QStringLiteral("%1 has an invalid \"%2\" time: %3 (expected ISO 8601, e.g. 2025-01-31T12:00:00Z).")
            .arg(where, key, quoted(value));
    return std::nullopt;
}

Error readString(const QJsonObject &object, QLatin1StringView key, const QString &where, QString &text)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isString())
        return QStringLiteral("%1 has a \"%2\" that is not text: %3.").arg(where, key, quoted(value));
    text = value.toString();
    return std::nullopt;
}

Error readInteger(const QJsonObject &object, QLatin1StringView key, const QString &where, qint64 &number)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isDouble())
        return QStringLiteral("%1 has a \"%2\" that is not a number: %3.").arg(where, key, quoted(value));
    number = value.toInteger();
    return std::nullopt;
}

Error readStringList(const QJsonObject &object, QLatin1StringView key, const QString &where, QStringList &list)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isArray())
        return QStringLiteral("%1 has a \"%2\" that is not a list: %3.").arg(where, key, quoted(value));
    for (const QJsonValue &item : value.toArray()) {
        if (!item.isString())
            return QStringLiteral("%1 has an entry in \"%2\" that is not text: %3.").arg(where, key, quoted(item));
        list << item.toString();
    }
    return std::nullopt;
}

// OpenAI allows content as a list of parts: the text parts are the message's text, the image
// parts (data URLs only: nothing is fetched) go to IMAGEURLS.
Error readContent(const QJsonObject &object, const QString &where, QString &content, QStringList &imageUrls)
{
    const QJsonValue value = object.value(QLatin1String("content"));
    if (value.isUndefined() || value.isNull() || value.isString()) {
        content = value.toString();
        return std::nullopt;
    }
    if (!value.isArray())
        return QStringLiteral("%1 has a \"content\" that is neither text nor a list of parts.").arg(where);
    QStringList parts;
    for (const QJsonValue &part : value.toArray()) {
        const QString type = part[QLatin1String("type")].toString();
        if (type == QLatin1String("image_url")) {
            const QJsonValue url = part[QLatin1String("image_url")][QLatin1String("url")];
            if (!url.isString())
                return QStringLiteral("%1 has an image part without a \"url\".").arg(where);
            imageUrls << url.toString();
            continue;
        }
        if (type != QLatin1String("text") || !part[QLatin1String("text")].isString())
            return QStringLiteral("%1 has a content part that is neither text nor an image.").arg(where);
        parts << part[QLatin1String("text")].toString();
    }
    content = parts.join(QLatin1Char('\n'));
    return std::nullopt;
}

// "image/png" -> "png", for a file name.
QString extensionOf(const QString &mimeType)
{
    const QString subtype = mimeType.section(QLatin1Char('/'), 1).section(QLatin1Char('+'), 0, 0);
    return subtype == QLatin1String("jpeg") ? QStringLiteral("jpg") : subtype;
}

// A file name for image INDEX of a message, as the export named it where that name can be a
// file of the new folder, and unique in FILES unless it holds the same bytes (a message sent
// again after an edit keeps its images).
QString imageFileName(const QString &wanted, const QByteArray &bytes, const QString &mimeType, int messageNumber,
                      int index, const QMap<QString, QByteArray> &files)
{
    QString name = QFileInfo(wanted).fileName();
    if (name.isEmpty() || !SandboxFolder::nameProblem(name).isEmpty() || name.startsWith(QLatin1Char('.')))
        name = QStringLiteral("image-%1-%2.%3").arg(messageNumber).arg(index + 1).arg(extensionOf(mimeType));
    const QString base = QFileInfo(name).completeBaseName();
    const QString suffix = QFileInfo(name).suffix();
    for (int copy = 2; files.contains(name) && files.value(name) != bytes; ++copy)
        name =
            QStringLiteral("%1-%2%3").arg(base).arg(copy).arg(suffix.isEmpty() ? QString() : QLatin1Char('.') + suffix);
    return name;
}

// The images of MESSAGE (number MESSAGENUMBER), from the data URLs of its content: decoded,
// checked as images (the file is untrusted) and added to FILES under the names the export gave.
Error readImages(const QJsonObject &object, const QStringList &urls, int messageNumber, const QString &where,
                 ChatMessage &message, QMap<QString, QByteArray> &files)
{
    if (urls.isEmpty())
        return std::nullopt;
    if (message.role != ChatMessage::Role::User)
        return QStringLiteral("%1 has images, which only user messages can have.").arg(where);
    QStringList names;
    if (const Error error = readStringList(object.value(QLatin1String("sandpiper")).toObject(),
                                           QLatin1StringView("images"), where, names))
        return error;
    // Base64 takes 4 characters for 3 bytes; the check comes before anything is decoded.
    constexpr qint64 maxUrlChars = ModelImage::MaxFileBytes / 3 * 4 + 256;
    for (int i = 0; i < urls.size(); ++i) {
        const QString &url = urls.at(i);
        const QString what = QStringLiteral("Image %1 of %2").arg(i + 1).arg(where.toLower());
        const qsizetype comma = url.indexOf(QLatin1Char(','));
        if (!url.startsWith(QLatin1String("data:image/")) || comma < 0 ||
            !url.left(comma).endsWith(QLatin1String(";base64")))
            return QStringLiteral("%1 is not embedded in the file (only images given as base64 data URLs can be "
                                  "imported; nothing is downloaded).")
                .arg(what);
        if (url.size() > maxUrlChars)
            return QStringLiteral("%1 is larger than %2, the largest image Sandpiper takes.")
                .arg(what, SandboxFolder::formatBytes(ModelImage::MaxFileBytes));
        const auto decoded =
            QByteArray::fromBase64Encoding(url.mid(comma + 1).toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return QStringLiteral("%1 is not valid base64.").arg(what);
        QString problem;
        const auto image = ModelImage::checkBytes(*decoded, what, &problem);
        if (!image)
            return problem;
        const QString name = imageFileName(names.value(i), *decoded, image->mimeType, messageNumber, i, files);
        files.insert(name, *decoded);
        message.images << name;
    }
    return std::nullopt;
}

Error readToolCalls(const QJsonObject &object, const QString &where, ChatMessage &message)
{
    const QJsonValue value = object.value(QLatin1String("tool_calls"));
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (message.role != ChatMessage::Role::Assistant)
        return QStringLiteral("%1 has \"tool_calls\", which only assistant messages can have.").arg(where);
    if (!value.isArray())
        return QStringLiteral("%1 has \"tool_calls\" that are not a list.").arg(where);
    const QJsonArray calls = value.toArray();
    for (qsizetype i = 0; i < calls.size(); ++i) {
        const QString callWhere = QStringLiteral("Tool call %1 of %2").arg(i + 1).arg(where.toLower());
        const QJsonObject call = calls.at(i).toObject();
        const QJsonObject function = call.value(QLatin1String("function")).toObject();
        const QJsonValue arguments = function.value(QLatin1String("arguments"));
        if (!call.value(QLatin1String("id")).isString() || call.value(QLatin1String("id")).toString().isEmpty())
            return QStringLiteral("%1 has no \"id\".").arg(callWhere);
        if (!function.value(QLatin1String("name")).isString() ||
            function.value(QLatin1String("name")).toString().isEmpty())
            return QStringLiteral("%1 has no function \"name\".").arg(callWhere);
        if (!arguments.isUndefined() && !arguments.isString() && !arguments.isObject())
            return QStringLiteral("%1 has \"arguments\" that are neither text nor an object.").arg(callWhere);
        message.toolCalls.append(
            {call.value(QLatin1String("id")).toString(), function.value(QLatin1String("name")).toString(),
             arguments.isObject()
                 ? QString::fromUtf8(QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact))
                 : arguments.toString()});
    }
    return std::nullopt;
}

Error readExtras(const QJsonObject &object, const QString &where, ChatMessage &message)
{
    const QJsonValue value = object.value(QLatin1String("sandpiper"));
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isObject())
        return QStringLiteral("%1 has a \"sandpiper\" entry that is not an object.").arg(where);
    const QJsonObject extras = value.toObject();
    const QJsonValue status = extras.value(QLatin1String("status"));
    if (!status.isUndefined()) {
        const QString name = status.toString();
        message.status = ChatMessage::statusFromName(name);
        if (ChatMessage::statusName(message.status) != name)
            return QStringLiteral("%1 has an unknown status %2 (expected complete, streaming, cancelled, error or "
                                  "interrupted).")
                .arg(where, quoted(status));
    }
    // What was streaming in the exporting app will never finish here.
    if (message.status == ChatMessage::Status::Streaming)
        message.status = ChatMessage::Status::Interrupted;
    const QJsonObject usage = extras.value(QLatin1String("usage")).toObject();
    for (const Error &error : {
             readString(extras, QLatin1StringView("reasoning"), where, message.reasoning),
             readString(extras, QLatin1StringView("error"), where, message.error),
             readString(extras, QLatin1StringView("tool_name"), where, message.toolName),
             readTime(extras, QLatin1StringView("created"), where, message.created),
             readTime(extras, QLatin1StringView("updated"), where, message.updated),
             readInteger(usage, QLatin1StringView("prompt_tokens"), where, message.usage.promptTokens),
             readInteger(usage, QLatin1StringView("completion_tokens"), where, message.usage.completionTokens),
             readInteger(usage, QLatin1StringView("total_tokens"), where, message.usage.totalTokens),
         }) {
        if (error)
            return error;
    }
    return std::nullopt;
}

Error readMessage(const QJsonValue &value, int number, ChatMessage &message, QMap<QString, QByteArray> &files)
{
    const QString where = QStringLiteral("Message %1").arg(number);
    if (!value.isObject())
        return QStringLiteral("%1 is not an object.").arg(where);
    const QJsonObject object = value.toObject();
    const QJsonValue role = object.value(QLatin1String("role"));
    if (role.isUndefined())
        return QStringLiteral("%1 has no \"role\".").arg(where);
    message.role = ChatMessage::roleFromName(role.toString());
    if (ChatMessage::roleName(message.role) != role.toString()) // roleFromName maps unknown names to user
        return QStringLiteral("%1 has an unknown role %2 (expected system, user, assistant or tool).")
            .arg(where, quoted(role));
    QStringList imageUrls;
    if (const Error error = readContent(object, where, message.content, imageUrls))
        return error;
    if (const Error error = readToolCalls(object, where, message))
        return error;
    if (message.role == ChatMessage::Role::Tool) {
        const QJsonValue id = object.value(QLatin1String("tool_call_id"));
        if (!id.isString() || id.toString().isEmpty())
            return QStringLiteral("%1 is a tool result without a \"tool_call_id\".").arg(where);
        message.toolCallId = id.toString();
    }
    if (const Error error = readExtras(object, where, message))
        return error;
    if (const Error error = readImages(object, imageUrls, number, where, message, files))
        return error;
    // An export sends what the model read: the note on the attached files goes apart again.
    message.separateAttachmentNote();
    return std::nullopt;
}

// Every tool result must answer a call made by the assistant message it follows, as strict
// servers check when the conversation continues.
Error checkToolResults(const QList<ChatMessage> &messages)
{
    QStringList open; // an id may stand for several calls of one message
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const ChatMessage &message = messages.at(i);
        if (message.role == ChatMessage::Role::Assistant) {
            open.clear();
            for (const ToolCall &call : message.toolCalls)
                open << call.id;
        } else if (message.role == ChatMessage::Role::Tool) {
            if (!open.removeOne(message.toolCallId))
                return QStringLiteral("Message %1 answers the tool call \"%2\", which the assistant message before it "
                                      "did not make.")
                    .arg(message.id != 0 ? message.id : i + 1)
                    .arg(message.toolCallId);
        } else {
            open.clear();
        }
    }
    return std::nullopt;
}

// The call an execution ran: "message" (its place among the messages, from 1) and "call_index";
// left invalid when the file does not say (older files).
Error readCall(const QJsonObject &object, const QString &where, CallKey &call)
{
    const QJsonValue message = object.value(QLatin1String("message"));
    const QJsonValue index = object.value(QLatin1String("call_index"));
    if (message.isUndefined() && index.isUndefined())
        return std::nullopt;
    if (!message.isDouble() || !index.isDouble() || message.toInteger(-1) < 1 || index.toInteger(-1) < 0)
        return QStringLiteral("%1 has a \"message\" or \"call_index\" that is not a place.").arg(where);
    call = {message.toInteger(), int(index.toInteger())};
    return std::nullopt;
}

Error readExecution(const QJsonValue &value, const QString &where, StoredExecution &execution)
{
    if (!value.isObject())
        return QStringLiteral("%1 is not an object.").arg(where);
    const QJsonObject object = value.toObject();
    if (!object.value(QLatin1String("code")).isString())
        return QStringLiteral("%1 has no \"code\".").arg(where);
    execution.code = object.value(QLatin1String("code")).toString();
    const QJsonValue origin = object.value(QLatin1String("origin"));
    if (!origin.isUndefined()) {
        const auto parsed = StoredExecution::originFromName(origin.toString());
        if (!parsed)
            return QStringLiteral("%1 has an unknown origin %2 (expected model or user).").arg(where, quoted(origin));
        execution.origin = *parsed;
    }
    const QJsonValue status = object.value(QLatin1String("status"));
    const auto parsedStatus = StoredExecution::statusFromName(status.toString());
    if (!parsedStatus)
        return QStringLiteral("%1 has an unknown status %2 (expected ok, error, interrupted, crashed or unavailable).")
            .arg(where, quoted(status));
    ExecutionResult &result = execution.result;
    qint64 figuresNotKept = 0;
    result.status = *parsedStatus;
    result.timedOut = object.value(QLatin1String("timed_out")).toBool();
    result.stateLost = object.value(QLatin1String("state_lost")).toBool();
    result.stateReset = object.value(QLatin1String("state_reset")).toBool();
    for (const Error &error : {
             readString(object, QLatin1StringView("tool_call_id"), where, execution.toolCallId),
             readString(object, QLatin1StringView("stdout"), where, result.standardOutput),
             readString(object, QLatin1StringView("stderr"), where, result.standardError),
             readString(object, QLatin1StringView("value"), where, result.value),
             readString(object, QLatin1StringView("error_type"), where, result.errorType),
             readString(object, QLatin1StringView("error_message"), where, result.errorMessage),
             readString(object, QLatin1StringView("traceback"), where, result.traceback),
             readInteger(object, QLatin1StringView("dropped_stdout_bytes"), where, result.droppedStdoutBytes),
             readInteger(object, QLatin1StringView("dropped_stderr_bytes"), where, result.droppedStderrBytes),
             readInteger(object, QLatin1StringView("duration_ms"), where, result.durationMs),
             readStringList(object, QLatin1StringView("figures"), where, result.figures),
             readStringList(object, QLatin1StringView("files"), where, result.files),
             readStringList(object, QLatin1StringView("refused"), where, result.refused),
             readString(object, QLatin1StringView("stop_reason"), where, result.stopReason),
             readInteger(object, QLatin1StringView("figures_not_kept"), where, figuresNotKept),
             readTime(object, QLatin1StringView("created"), where, execution.created),
             readCall(object, where, execution.call),
         }) {
        if (error)
            return error;
    }
    result.figuresNotKept = int(std::clamp<qint64>(figuresNotKept, 0, std::numeric_limits<int>::max()));
    const QJsonValue rich = object.value(QLatin1String("rich_output"));
    if (!rich.isUndefined() && !rich.isNull() && !rich.isObject())
        return QStringLiteral("%1 has a \"rich_output\" that is not an object.").arg(where);
    result.setRichOutput(rich.toObject());
    return std::nullopt;
}

std::pair<int, int> lineAndColumn(const QByteArray &text, qsizetype offset)
{
    const QByteArray before = text.left(offset);
    const qsizetype lineStart = before.lastIndexOf('\n') + 1;
    return {int(before.count('\n')) + 1, int(QString::fromUtf8(before.mid(lineStart)).size()) + 1};
}

} // namespace

StoreResult<ConversationSnapshot> parse(const QByteArray &json)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const auto [line, column] = lineAndColumn(json, parseError.offset);
        return invalid(QStringLiteral("The file is not valid JSON: %1 at line %2, column %3.")
                           .arg(parseError.errorString())
                           .arg(line)
                           .arg(column));
    }
    if (!document.isObject())
        return invalid(QStringLiteral("The file is not a Sandpiper conversation: it holds no JSON object."));
    const QJsonObject root = document.object();
    const QJsonValue format = root.value(QLatin1String("format"));
    if (format.toString() != ConversationExport::Format) {
        return invalid(QStringLiteral("The file is not a Sandpiper conversation: its \"format\" is %1 instead of "
                                      "\"%2\".")
                           .arg(quoted(format), ConversationExport::Format));
    }
    const QJsonValue version = root.value(QLatin1String("version"));
    if (!version.isDouble() || version.toDouble() != double(version.toInt()) || version.toInt() < 1)
        return invalid(QStringLiteral("The file has an invalid \"version\": %1.").arg(quoted(version)));
    if (version.toInt() > ConversationExport::FormatVersion) {
        return invalid(QStringLiteral("The file was exported by a newer Sandpiper (format version %1; this version "
                                      "reads up to %2).")
                           .arg(version.toInt())
                           .arg(ConversationExport::FormatVersion));
    }

    ConversationSnapshot snapshot;
    Conversation &conversation = snapshot.conversation;
    const QString file = QStringLiteral("The conversation");
    for (const Error &error : {
             readString(root, QLatin1StringView("title"), file, conversation.title),
             readString(root, QLatin1StringView("provider"), file, conversation.provider),
             readString(root, QLatin1StringView("model"), file, conversation.model),
             readTime(root, QLatin1StringView("created"), file, conversation.created),
             readTime(root, QLatin1StringView("updated"), file, conversation.updated),
         }) {
        if (error)
            return invalid(*error);
    }
    const QJsonValue settings = root.value(QLatin1String("settings"));
    if (!settings.isUndefined() && !settings.isNull() && !settings.isObject())
        return invalid(QStringLiteral("The conversation's \"settings\" are not an object."));
    conversation.settings = settings.toObject();

    const QJsonValue messages = root.value(QLatin1String("messages"));
    if (!messages.isArray())
        return invalid(QStringLiteral("The file has no \"messages\" list."));
    const QJsonArray messageArray = messages.toArray();
    qint64 lastShown = 0;
    QSet<qint64> parents;
    for (qsizetype i = 0; i < messageArray.size(); ++i) {
        ChatMessage message;
        if (const Error error = readMessage(messageArray.at(i), int(i + 1), message, snapshot.files))
            return invalid(*error);
        message.id = i + 1; // the executions name their call's message by its place; the store renumbers
        // A message follows the one before it, unless it names its parent (a conversation with versions).
        const QJsonObject extras = messageArray.at(i).toObject().value(QLatin1String("sandpiper")).toObject();
        const QJsonValue parent = extras.value(QLatin1String("parent"));
        if (parent.isUndefined()) {
            message.parentId = i;
        } else if (!parent.isDouble() || parent.toDouble() != double(parent.toInt()) || parent.toInt() < 0 ||
                   parent.toInt() > i) {
            return invalid(
                QStringLiteral("Message %1 has a \"parent\" that is not the place of a message before it: %2.")
                    .arg(i + 1)
                    .arg(quoted(parent)));
        } else {
            message.parentId = parent.toInt();
        }
        if (extras.value(QLatin1String("shown")).toBool(true))
            lastShown = message.id;
        parents.insert(message.parentId);
        snapshot.tree.append(message);
    }
    // Every path from the first message to a last one is a conversation of its own for the checks.
    for (const ChatMessage &leaf : std::as_const(snapshot.tree)) {
        if (parents.contains(leaf.id))
            continue;
        QList<ChatMessage> path;
        for (qint64 id = leaf.id; id != 0; id = snapshot.tree.at(id - 1).parentId)
            path.prepend(snapshot.tree.at(id - 1));
        if (const Error error = checkToolResults(path))
            return invalid(*error);
    }
    for (qint64 id = lastShown; id != 0; id = snapshot.tree.at(id - 1).parentId)
        snapshot.messages.prepend(snapshot.tree.at(id - 1));

    const QJsonValue executions = root.value(QLatin1String("executions"));
    if (!executions.isUndefined() && !executions.isArray())
        return invalid(QStringLiteral("The file's \"executions\" are not a list."));
    const QJsonArray executionArray = executions.toArray();
    for (qsizetype i = 0; i < executionArray.size(); ++i) {
        StoredExecution execution;
        const QString where = QStringLiteral("Execution %1").arg(i + 1);
        if (const Error error = readExecution(executionArray.at(i), where, execution))
            return invalid(*error);
        if (const CallKey &call = execution.call;
            call.isValid() && (call.messageId > snapshot.tree.size() ||
                               (execution.origin == RunOrigin::Model &&
                                call.index >= snapshot.tree.at(call.messageId - 1).toolCalls.size())))
            return invalid(QStringLiteral("%1 names a call that the file's messages do not have.").arg(where));
        snapshot.allExecutions.append(execution);
    }
    QSet<qint64> onPath;
    for (const ChatMessage &message : std::as_const(snapshot.messages))
        onPath.insert(message.id);
    for (const StoredExecution &execution : std::as_const(snapshot.allExecutions)) {
        if (!execution.call.isValid() || onPath.contains(execution.call.messageId))
            snapshot.executions.append(execution);
    }
    return snapshot;
}

StoreResult<Conversation> importFile(ConversationStore &store, const QString &filePath)
{
    QFile file(filePath);
    if (!file.open(QIODevice::ReadOnly)) {
        return StoreError{
            StoreError::Kind::InvalidInput,
            QStringLiteral("Could not read %1: %2.").arg(QDir::toNativeSeparators(filePath), file.errorString())};
    }
    auto snapshot = parse(file.readAll());
    if (!snapshot)
        return snapshot.error();
    return store.insertConversation(*snapshot);
}

} // namespace Sandpiper::ConversationImport
