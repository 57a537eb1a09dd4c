#include "branchlisting.h"

#include "storage/conversationstore.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <cstdio>

namespace Sandpiper {

namespace {

constexpr qsizetype FirstWordsLength = 60;

// What a line says of MESSAGE: its first words, or what it did when it has none.
QString firstWords(const ChatMessage &message)
{
    QString text = message.content.simplified();
    if (text.isEmpty() && !message.toolCalls.isEmpty()) {
        QStringList names;
        for (const ToolCall &call : message.toolCalls)
            names << call.name;
        text = QStringLiteral("(calls %1)").arg(names.join(QStringLiteral(", ")));
    } else if (message.role == ChatMessage::Role::Tool) {
        text = QStringLiteral("(result of %1) %2").arg(message.toolCallId, text);
    }
    if (text.size() > FirstWordsLength)
        text = text.left(FirstWordsLength - 1) + QChar(0x2026);
    return text;
}

} // namespace

int listBranches(ConversationStore &store, qint64 conversationId, bool json)
{
    const auto tree = store.allMessages(conversationId);
    const auto shownPath = store.messages(conversationId);
    if (!tree || !shownPath) {
        std::fprintf(stderr, "sandpiper-cli: %s\n",
                     qPrintable(tree ? shownPath.error().message : tree.error().message));
        return 1;
    }
    QSet<qint64> shown;
    for (const ChatMessage &message : *shownPath)
        shown.insert(message.id);
    QHash<qint64, QList<const ChatMessage *>> children;
    for (const ChatMessage &message : *tree)
        children[message.parentId] << &message;

    // Depth first, so that a branch reads down to its end before the next version begins.
    struct Step {
        const ChatMessage *message;
        int indent;
        int version;
        int versions;
    };
    QList<Step> stack;
    auto push = [&](qint64 parent, int indent) {
        const QList<const ChatMessage *> &below = children.value(parent);
        const int deeper = below.size() > 1 ? indent + 1 : indent;
        for (qsizetype i = below.size() - 1; i >= 0; --i)
            stack.append({below.at(i), deeper, int(i + 1), int(below.size())});
    };
    push(0, 0);
    while (!stack.isEmpty()) {
        const Step step = stack.takeLast();
        const ChatMessage &message = *step.message;
        const bool onPath = shown.contains(message.id);
        if (json) {
            const QJsonObject object{{QStringLiteral("id"), message.id},
                                     {QStringLiteral("parent"), message.parentId},
                                     {QStringLiteral("role"), ChatMessage::roleName(message.role)},
                                     {QStringLiteral("shown"), onPath},
                                     {QStringLiteral("version"), step.version},
                                     {QStringLiteral("versions"), step.versions},
                                     {QStringLiteral("text"), message.content}};
            std::printf("%s\n", QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
        } else {
            const QString versions =
                step.versions > 1 ? QStringLiteral(" [%1/%2]").arg(step.version).arg(step.versions) : QString();
            std::printf("%s %s%lld %s%s: %s\n", onPath ? "*" : " ",
                        qPrintable(QString(step.indent * 2, QLatin1Char(' '))), qlonglong(message.id),
                        qPrintable(ChatMessage::roleName(message.role)), qPrintable(versions),
                        qPrintable(firstWords(message)));
        }
        push(message.id, step.indent);
    }
    std::fflush(stdout);
    return 0;
}

} // namespace Sandpiper
