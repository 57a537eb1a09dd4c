#include "llm/chatmessage.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace Sandpiper {

namespace {

constexpr std::pair<ChatMessage::Role, QLatin1StringView> roleNames[] = {
    {ChatMessage::Role::System, QLatin1StringView("system")},
    {ChatMessage::Role::User, QLatin1StringView("user")},
    {ChatMessage::Role::Assistant, QLatin1StringView("assistant")},
    {ChatMessage::Role::Tool, QLatin1StringView("tool")},
};

constexpr std::pair<ChatMessage::Status, QLatin1StringView> statusNames[] = {
    {ChatMessage::Status::Complete, QLatin1StringView("complete")},
    {ChatMessage::Status::Streaming, QLatin1StringView("streaming")},
    {ChatMessage::Status::Cancelled, QLatin1StringView("cancelled")},
    {ChatMessage::Status::Error, QLatin1StringView("error")},
    {ChatMessage::Status::Interrupted, QLatin1StringView("interrupted")},
};

} // namespace

qsizetype ChatMessage::currentTurnStart(const QList<ChatMessage> &messages)
{
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        if (messages.at(i).role == Role::User)
            return i + 1;
    }
    return 0;
}

QList<CallKey> ChatMessage::answeredCalls(const QList<ChatMessage> &messages)
{
    QList<CallKey> answered(messages.size());
    const ChatMessage *answer = nullptr;
    QList<int> open; // the calls of ANSWER not answered yet, by place
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const ChatMessage &message = messages.at(i);
        if (message.role != Role::Tool) {
            answer = message.role == Role::Assistant ? &message : nullptr;
            open.clear();
            for (int index = 0; answer && index < answer->toolCalls.size(); ++index)
                open << index;
            continue;
        }
        if (!answer)
            continue;
        const auto found = std::find_if(open.cbegin(), open.cend(), [&](int index) {
            return answer->toolCalls.at(index).id == message.toolCallId;
        });
        if (found == open.cend())
            continue;
        answered[i] = CallKey{answer->id, *found};
        open.erase(found);
    }
    return answered;
}

QString ChatMessage::attachmentHeader()
{
    return QStringLiteral("Attached files (in /mnt/data):\n");
}

QString ChatMessage::modelContent() const
{
    if (attachmentNote.isEmpty())
        return content;
    return attachmentHeader() + attachmentNote.trimmed() + QStringLiteral("\n\n") + content;
}

void ChatMessage::separateAttachmentNote()
{
    const QString header = attachmentHeader();
    if (role != Role::User || !attachmentNote.isEmpty() || !content.startsWith(header))
        return;
    const qsizetype end = content.indexOf(QLatin1String("\n\n"), header.size());
    attachmentNote = end < 0 ? content.mid(header.size()) : content.mid(header.size(), end - header.size());
    content = end < 0 ? QString() : content.mid(end + 2);
    // One line per file, "- /mnt/data/NAME: what it is"; the images show as images.
    static const QRegularExpression fileLine(QStringLiteral("^- /mnt/data/(.+?): "),
                                             QRegularExpression::MultilineOption);
    for (auto match = fileLine.globalMatch(attachmentNote); match.hasNext();) {
        const QString name = match.next().captured(1);
        const bool known = std::any_of(attachments.cbegin(), attachments.cend(),
                                       [&name](const AttachedFile &file) { return file.name == name; });
        if (!known && !images.contains(name))
            attachments.append({name, 0});
    }
}

QString ChatMessage::roleName(Role role)
{
    for (const auto &[value, name] : roleNames) {
        if (value == role)
            return name;
    }
    return {};
}

ChatMessage::Role ChatMessage::roleFromName(QStringView name)
{
    for (const auto &[value, text] : roleNames) {
        if (name == text)
            return value;
    }
    return Role::User;
}

QString ChatMessage::statusName(Status status)
{
    for (const auto &[value, name] : statusNames) {
        if (value == status)
            return name;
    }
    return {};
}

ChatMessage::Status ChatMessage::statusFromName(QStringView name)
{
    for (const auto &[value, text] : statusNames) {
        if (name == text)
            return value;
    }
    return Status::Complete;
}

QJsonObject ChatMessage::toOpenAi() const
{
    QJsonObject object{{QStringLiteral("role"), roleName(role)}};
    if (!imageUrls.isEmpty()) {
        // The OpenAI vision format, which llama.cpp, Ollama, LM Studio and vLLM accept too.
        QJsonArray parts{
            QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), modelContent()}}};
        for (const QString &url : imageUrls) {
            parts.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("image_url")},
                                     {QStringLiteral("image_url"), QJsonObject{{QStringLiteral("url"), url}}}});
        }
        object.insert(QStringLiteral("content"), parts);
    } else {
        // Strict servers want content present; an assistant turn with only tool calls sends null.
        object.insert(QStringLiteral("content"), role == Role::Assistant && content.isEmpty() && !toolCalls.isEmpty()
                                                     ? QJsonValue()
                                                     : QJsonValue(modelContent()));
    }
    if (!toolCalls.isEmpty()) {
        QJsonArray calls;
        for (const ToolCall &call : toolCalls) {
            calls.append(
                QJsonObject{{QStringLiteral("id"), call.id},
                            {QStringLiteral("type"), QStringLiteral("function")},
                            {QStringLiteral("function"), QJsonObject{{QStringLiteral("name"), call.name},
                                                                     {QStringLiteral("arguments"), call.arguments}}}});
        }
        object.insert(QStringLiteral("tool_calls"), calls);
    }
    if (role == Role::Tool)
        object.insert(QStringLiteral("tool_call_id"), toolCallId);
    return object;
}

ChatMessage ChatMessage::fromOpenAi(const QJsonObject &object)
{
    ChatMessage message;
    message.role = roleFromName(object.value(QLatin1String("role")).toString());
    const QJsonValue content = object.value(QLatin1String("content"));
    if (content.isArray()) {
        // Content parts: the text is kept; images in a file that is imported have no file here.
        QStringList texts;
        for (const QJsonValue &part : content.toArray()) {
            if (part[QLatin1String("type")].toString() == QLatin1String("text"))
                texts << part[QLatin1String("text")].toString();
        }
        message.content = texts.join(QLatin1Char('\n'));
    } else {
        message.content = content.toString();
    }
    message.toolCallId = object.value(QLatin1String("tool_call_id")).toString();
    for (const QJsonValue &value : object.value(QLatin1String("tool_calls")).toArray()) {
        const QJsonObject function = value[QLatin1String("function")].toObject();
        message.toolCalls.append({value[QLatin1String("id")].toString(),
                                  function.value(QLatin1String("name")).toString(),
                                  function.value(QLatin1String("arguments")).toString()});
    }
    return message;
}

} // namespace Sandpiper
