#pragma once

#include "llm/chatmessage.h"
#include "llm/providerconfig.h"

#include <QObject>

#include <QCoroTask>

namespace Sandpiper {

class ChatClient;
class ConversationStore;

// Asks the model for a short title after a conversation's first answer. The title from the first
// message stands at once; the model's replaces it unless the user renamed the conversation
// meanwhile.
class TitleWriter : public QObject
{
    Q_OBJECT

public:
    // The title of conversation CONVERSATIONID in STORE, written by the model of PROVIDER.
    TitleWriter(ProviderConfig provider, ConversationStore *store, qint64 conversationId, QObject *parent = nullptr);

    // Takes effect at the next title.
    void setProvider(const ProviderConfig &provider);
    // Writes a title for the conversation that began with QUESTION and ANSWER.
    QCoro::Task<> write(ChatMessage question, QString answer);
    // Drops the request that runs.
    void cancel();

Q_SIGNALS:
    // The conversation was renamed to TITLE.
    void titleChanged(const QString &title);
    // Renaming failed, in words for the user.
    void storeFailed(const QString &message);

private:
    ProviderConfig m_provider;
    ConversationStore *m_store;
    qint64 m_conversationId;
    ChatClient *m_client = nullptr; // created for the first title
};

} // namespace Sandpiper
