// The model's title for a conversation, by TitleWriter alone, against the fake model server and a
// real store: what the model is asked, the title it gives (cleaned) replacing the one from the
// first message, and the user's own title left alone.
#include "fakellmserver.h"
#include "fakestreams.h"
#include "testconversation.h"

#include <agent/titlewriter.h>
#include <storage/conversation.h>
#include <storage/conversationstore.h>

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <QCoroTask>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

class TestTitleWriter : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    TestConversation m_data;
    ChatMessage m_question;

    ProviderConfig provider() const
    {
        ProviderConfig config;
        config.id = QStringLiteral("custom");
        config.baseUrl = m_server->baseUrl().toString();
        config.model = QStringLiteral("test-model");
        config.maxRetries = 0;
        return config;
    }

    QString title() { return m_data.store->conversation(m_data.id)->title; }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        const QString opened = m_data.open();
        QVERIFY2(opened.isEmpty(), qPrintable(opened));
        // The store names the conversation after its first message.
        m_question = {};
        m_question.role = ChatMessage::Role::User;
        m_question.content = QStringLiteral("How tall is the tower in this table, and how old is it?");
        m_question.attachments = {{QStringLiteral("towers.csv"), 120}};
        QVERIFY(m_data.store->appendMessage(m_data.id, m_question).ok());
        QCOMPARE(title(), Conversation::titleFromFirstMessage(m_question));
    }

    void cleanup()
    {
        m_data.close();
        m_server.reset();
    }

    void theModelsTitleReplacesTheFirstMessages()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("\"**Eiffel Tower height and age**\"")));
        TitleWriter writer(provider(), m_data.store.get(), m_data.id);
        QSignalSpy changed(&writer, &TitleWriter::titleChanged);
        QCoro::waitFor(writer.write(m_question, QStringLiteral("It is 330 m tall and was finished in 1889.")));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().first().toString(), QStringLiteral("Eiffel Tower height and age"));
        QCOMPARE(title(), QStringLiteral("Eiffel Tower height and age"));

        // The model is shown the user's words and the names of their files, and the answer.
        QCOMPARE(m_server->chatRequests().size(), 1);
        const QJsonArray messages = m_server->chatRequests().first().json().value(QLatin1String("messages")).toArray();
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages.at(0)[QLatin1String("role")].toString(), QStringLiteral("system"));
        QCOMPARE(messages.at(1)[QLatin1String("content")].toString(),
                 QStringLiteral("Question: How tall is the tower in this table, and how old is it?\n[attached: "
                                "towers.csv]\n\nAnswer: It is 330 m tall and was finished in 1889."));
    }

    void aTitleTheUserGaveStays()
    {
        m_server->enqueue(FS::openAiText(QStringLiteral("Eiffel Tower facts")));
        QVERIFY(m_data.store->renameConversation(m_data.id, QStringLiteral("Paris trip")).ok());
        TitleWriter writer(provider(), m_data.store.get(), m_data.id);
        QSignalSpy changed(&writer, &TitleWriter::titleChanged);
        QCoro::waitFor(writer.write(m_question, QStringLiteral("330 m.")));
        QCOMPARE(m_server->chatRequests().size(), 1);
        QVERIFY(changed.isEmpty());
        QCOMPARE(title(), QStringLiteral("Paris trip"));
    }

    void aFailedOrUnusableAnswerChangesNothing()
    {
        m_server->enqueue(FS::httpError(500, QStringLiteral("overloaded")));
        m_server->enqueue(FS::openAiText(QString(81, QLatin1Char('x'))));
        TitleWriter writer(provider(), m_data.store.get(), m_data.id);
        QSignalSpy changed(&writer, &TitleWriter::titleChanged);
        QCoro::waitFor(writer.write(m_question, QStringLiteral("330 m.")));
        QCoro::waitFor(writer.write(m_question, QStringLiteral("330 m.")));
        QCOMPARE(m_server->chatRequests().size(), 2);
        QVERIFY(changed.isEmpty());
        QCOMPARE(title(), Conversation::titleFromFirstMessage(m_question));
    }
};

QTEST_GUILESS_MAIN(TestTitleWriter)
#include "tst_titlewriter.moc"
