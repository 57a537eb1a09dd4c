#include "agent/titlewriter.h"

#include "llm/chatclient.h"
#include "storage/conversation.h"
#include "storage/conversationstore.h"

#include <QPointer>

namespace Sandpiper {

TitleWriter::TitleWriter(ProviderConfig provider, ConversationStore *store, qint64 conversationId, QObject *parent)
    : QObject(parent)
    , m_provider(std::move(provider))
    , m_store(store)
    , m_conversationId(conversationId)
{}

void TitleWriter::setProvider(const ProviderConfig &provider)
{
    m_provider = provider;
    if (m_client)
        m_client->setConfig(provider);
}

void TitleWriter::cancel()
{
    if (m_client)
        m_client->cancel();
}

QCoro::Task<> TitleWriter::write(ChatMessage question, QString answer)
{
    QPointer<TitleWriter> self(this);
    ChatMessage instruction;
    instruction.role = ChatMessage::Role::System;
    instruction.content = QStringLiteral("Write a title of at most six words for this conversation, in the language of "
                                         "the question. Reply with the title only, without quotes.");
    ChatMessage user;
    // The user's words, or the names of their files: never the rows the model was shown of them.
    QString asked = question.content;
    for (const AttachedFile &file : std::as_const(question.attachments))
        asked += QStringLiteral("\n[attached: %1]").arg(file.name);
    user.content = QStringLiteral("Question: %1\n\nAnswer: %2").arg(asked.trimmed().left(2000), answer.left(2000));
    // A client of its own, so that the title does not wait for the conversation's next request.
    if (!m_client)
        m_client = new ChatClient(m_provider, this);
    const ChatResponse response = co_await m_client->complete({instruction, user}, {});
    if (!self || !response.ok())
        co_return;
    QString title = response.message.content.simplified();
    title.remove(QLatin1Char('"')).remove(QLatin1Char('*'));
    if (title.isEmpty() || title.size() > 80)
        co_return;
    const auto conversation = m_store->conversation(m_conversationId);
    if (!conversation || conversation->title != Conversation::titleFromFirstMessage(question))
        co_return;
    if (auto renamed = m_store->renameConversation(m_conversationId, title); !renamed) {
        Q_EMIT storeFailed(renamed.error().message);
        co_return;
    }
    Q_EMIT titleChanged(title);
}

} // namespace Sandpiper
