// The files and images of a message made ready for the model, by AttachmentPreparer alone: whether
// the model takes images (asked of the fake server), the names, sizes and host descriptions of the
// files, the images as data URLs in a request, and a model that refuses them after all.
#include "fakellmserver.h"
#include "fakestreams.h"

#include <agent/attachmentpreparer.h>
#include <llm/chatclient.h>
#include <llm/contextbudget.h>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <QCoroTask>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

class TestAttachmentPreparer : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ChatClient> m_client;
    std::unique_ptr<ContextBudget> m_budget;
    std::unique_ptr<AttachmentPreparer> m_preparer;

    static QString model() { return QStringLiteral("test-model"); }

    bool writeImage(const QString &name)
    {
        QImage image(64, 48, QImage::Format_RGB32);
        image.fill(Qt::darkCyan);
        return image.save(m_dir->filePath(name), "PNG");
    }

    static ChatMessage userWithImage(const QString &name)
    {
        ChatMessage message;
        message.role = ChatMessage::Role::User;
        message.content = QStringLiteral("Look at this.");
        message.images = {name};
        return message;
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        ProviderConfig provider;
        provider.id = QStringLiteral("llamacpp"); // /props says whether the model has a projector
        provider.baseUrl = m_server->baseUrl().toString();
        provider.model = model();
        provider.maxRetries = 0;
        m_client = std::make_unique<ChatClient>(provider);
        m_budget = std::make_unique<ContextBudget>(m_client.get());
        // No sandbox: the host describes the files.
        m_preparer = std::make_unique<AttachmentPreparer>(m_dir->path(), 512, nullptr, m_budget.get());
    }

    void cleanup()
    {
        m_preparer.reset();
        m_budget.reset();
        m_client.reset();
        m_dir.reset();
        m_server.reset();
    }

    void aModelWithoutVisionRefusesTheImages()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768, false));
        QVERIFY(writeImage(QStringLiteral("photo.png")));
        const QString refusal = QCoro::waitFor(m_preparer->imagesRefusal(model(), {QStringLiteral("photo.png")}));
        QVERIFY2(refusal.contains(QStringLiteral("“test-model” does not take images")), qPrintable(refusal));
    }

    void aVisionModelTakesReadableImagesOnly()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768, true));
        QVERIFY(writeImage(QStringLiteral("photo.png")));
        QCOMPARE(QCoro::waitFor(m_preparer->imagesRefusal(model(), {QStringLiteral("photo.png")})), QString());
        QFile broken(m_dir->filePath(QStringLiteral("broken.png")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write(QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(64, 'x'));
        broken.close();
        const QString refusal = QCoro::waitFor(m_preparer->imagesRefusal(model(), {QStringLiteral("broken.png")}));
        QVERIFY2(refusal.contains(QLatin1String("broken.png")), qPrintable(refusal));
        QVERIFY2(refusal.endsWith(QLatin1String("remove that image and send again.")), qPrintable(refusal));
    }

    void filesAreNamedSizedAndDescribed()
    {
        QFile table(m_dir->filePath(QStringLiteral("sales.csv")));
        QVERIFY(table.open(QIODevice::WriteOnly));
        table.write("month,total\njan,120\nfeb,135\n");
        table.close();
        QVERIFY(writeImage(QStringLiteral("chart.png")));
        ChatMessage user;
        user.role = ChatMessage::Role::User;
        user.content = QStringLiteral("Compare these.");
        const ChatMessage attached =
            QCoro::waitFor(m_preparer->attach(user, {QStringLiteral("sales.csv")}, {QStringLiteral("chart.png")}));
        QCOMPARE(attached.content, user.content);
        // The file shows beside the text; the image does not, but the model learns its name.
        QCOMPARE(attached.attachments.size(), 1);
        QCOMPARE(attached.attachments.first().name, QStringLiteral("sales.csv"));
        QCOMPARE(attached.attachments.first().size, table.size());
        QVERIFY2(attached.attachmentNote.contains(QLatin1String("- /mnt/data/sales.csv:")),
                 qPrintable(attached.attachmentNote));
        QVERIFY2(attached.attachmentNote.contains(QLatin1String("jan,120")), qPrintable(attached.attachmentNote));
        QVERIFY2(attached.attachmentNote.contains(QLatin1String("- /mnt/data/chart.png:")),
                 qPrintable(attached.attachmentNote));

        const ChatMessage plain = QCoro::waitFor(m_preparer->attach(user, {}, {}));
        QVERIFY(plain.attachments.isEmpty());
        QVERIFY(plain.attachmentNote.isEmpty());
    }

    void requestsCarryTheImagesOrSayWhyNot()
    {
        QVERIFY(writeImage(QStringLiteral("chart.png")));
        const QList<ChatMessage> sent = m_preparer->withImages(
            {userWithImage(QStringLiteral("chart.png")), userWithImage(QStringLiteral("gone.png"))}, model());
        QCOMPARE(sent.at(0).imageUrls.size(), 1);
        QVERIFY(sent.at(0).imageUrls.first().startsWith(QLatin1String("data:image/png;base64,")));
        QCOMPARE(sent.at(0).content, QStringLiteral("Look at this."));
        QVERIFY(sent.at(1).imageUrls.isEmpty());
        QVERIFY2(sent.at(1).content.contains(QLatin1String("[Not shown: The image gone.png is no longer there.]")),
                 qPrintable(sent.at(1).content));
    }

    void aModelThatRefusesImagesIsSentTextFromThenOn()
    {
        QVERIFY(writeImage(QStringLiteral("chart.png")));
        const QList<ChatMessage> request =
            m_preparer->withImages({userWithImage(QStringLiteral("chart.png"))}, model());
        ChatResponse response;
        response.error.kind = ChatError::Kind::Server;
        response.error.message = QStringLiteral("image input is not supported");

        // Another error is left as it is.
        ChatResponse other = response;
        other.error.message = QStringLiteral("the server is busy");
        m_preparer->learnFromRefusal(request, other, model());
        QCOMPARE(other.error.message, QStringLiteral("the server is busy"));
        QVERIFY(!m_budget->knownAcceptsImages(model()).has_value());

        m_preparer->learnFromRefusal(request, response, model());
        QVERIFY2(response.error.message.startsWith(QLatin1String("image input is not supported The model did not "
                                                                 "take the images.")),
                 qPrintable(response.error.message));
        QCOMPARE(m_budget->knownAcceptsImages(model()), std::optional<bool>(false));
        const QList<ChatMessage> next = m_preparer->withImages({userWithImage(QStringLiteral("chart.png"))}, model());
        QVERIFY(next.first().imageUrls.isEmpty());
        QVERIFY2(next.first().content.contains(
                     QLatin1String("[The image chart.png is not shown: this model does not take images.]")),
                 qPrintable(next.first().content));
    }
};

QTEST_GUILESS_MAIN(TestAttachmentPreparer)
#include "tst_attachmentpreparer.moc"
