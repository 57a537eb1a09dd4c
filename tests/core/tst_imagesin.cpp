// Images in (issue 17): what a vision model is sent (image_url parts with data URLs, scaled down),
// how Sandpiper learns which models take images, and what happens when one does not, against the
// fake model server with real wire formats and a real SQLite store.
#include "agentrecorder.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "sandboxfiles.h"

#include <agent/agentloop.h>
#include <agent/agentthread.h>
#include <llm/contextwindowprobe.h>
#include <llm/modelimage.h>
#include <sandbox/sandboxfolder.h>
#include <session/agentsettings.h>
#include <session/conversationsession.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;
using Kind = AgentEvent::Kind;
using Recorder = Sandpiper::Test::AgentRecorder;

namespace {

bool writeImage(const QString &path, const QImage &image, const char *format)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    return image.save(path, format);
}

// The image of a data URL, and its MIME type.
QImage decodeDataUrl(const QString &url, QString *type)
{
    const qsizetype comma = url.indexOf(QLatin1Char(','));
    const QString header = url.left(comma);
    *type = header.mid(5, header.indexOf(QLatin1Char(';')) - 5);
    if (!header.startsWith(QLatin1String("data:image/")) || !header.endsWith(QLatin1String(";base64")))
        return {};
    return QImage::fromData(QByteArray::fromBase64(url.mid(comma + 1).toLatin1()));
}

// The content of the last user message of a recorded chat request.
QJsonValue lastUserContent(const RecordedRequest &request)
{
    const QJsonArray messages = request.json().value(QLatin1String("messages")).toArray();
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        if (messages[i][QLatin1String("role")].toString() == QLatin1String("user"))
            return messages[i][QLatin1String("content")];
    }
    return {};
}

QStringList imageUrlsIn(const QJsonValue &content)
{
    QStringList urls;
    for (const QJsonValue &part : content.toArray()) {
        if (part[QLatin1String("type")].toString() == QLatin1String("image_url"))
            urls << part[QLatin1String("image_url")][QLatin1String("url")].toString();
    }
    return urls;
}

} // namespace

class TestImagesIn : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ConversationStore> m_store;
    qint64 m_conversation = 0;

    QString folder() const { return m_store->conversationFolder(m_conversation); }

    // llama.cpp as the preset names it: /props says whether the model has a projector.
    AgentConfig config(const QString &preset = QStringLiteral("llamacpp"))
    {
        AgentConfig c = agentConfig(m_server->baseUrl(), ApprovalPolicy::Auto, folder());
        c.provider.id = preset;
        c.provider.maxRetries = 0;
        c.pythonEnabled = false; // the host describes the files; tst_agentloop covers the sandbox's description
        c.chartsEnabled = false;
        c.webEnabled = false;
        c.imageMaxSide = 512;
        return c;
    }

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        m_dir = std::make_unique<QTemporaryDir>();
        m_store = std::make_unique<ConversationStore>(m_dir->path());
        QVERIFY(m_store->open());
        const auto conversation = m_store->createConversation(QStringLiteral("llamacpp"), QStringLiteral("test-model"));
        QVERIFY(conversation);
        m_conversation = conversation->id;
        QVERIFY(QDir().mkpath(folder()));
    }
    void cleanup()
    {
        m_store.reset();
        m_dir.reset();
        m_server.reset();
    }

    void imagesGoAsContentPartsAfterTheText()
    {
        ChatMessage message;
        message.content = QStringLiteral("What is wrong with this chart?");
        message.imageUrls = {QStringLiteral("data:image/png;base64,AAAA"),
                             QStringLiteral("data:image/jpeg;base64,BBBB")};
        const QJsonArray parts = message.toOpenAi().value(QLatin1String("content")).toArray();
        QCOMPARE(parts.size(), 3);
        QCOMPARE(parts[0][QLatin1String("type")].toString(), QStringLiteral("text"));
        QCOMPARE(parts[0][QLatin1String("text")].toString(), message.content);
        QCOMPARE(parts[2][QLatin1String("type")].toString(), QStringLiteral("image_url"));
        QCOMPARE(parts[2][QLatin1String("image_url")][QLatin1String("url")].toString(), message.imageUrls.at(1));
        // Without images the content stays a string, as every server takes it.
        message.imageUrls.clear();
        QVERIFY(message.toOpenAi().value(QLatin1String("content")).isString());
        // Imported content parts keep their text.
        QCOMPARE(ChatMessage::fromOpenAi(
                     QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), parts}})
                     .content,
                 QStringLiteral("What is wrong with this chart?"));
    }

    void largeImagesAreScaledToTheLongestSide_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QByteArray>("format");
        QTest::addColumn<int>("maxSide");
        QTest::addColumn<QSize>("sent");
        QTest::addColumn<QString>("type");
        QTest::newRow("wide screenshot") << QSize(4000, 1000) << QByteArray("PNG") << ModelImage::DefaultMaxSide
                                         << QSize(1568, 392) << QStringLiteral("image/png");
        QTest::newRow("tall photo") << QSize(1200, 3136) << QByteArray("JPEG") << ModelImage::DefaultMaxSide
                                    << QSize(600, 1568) << QStringLiteral("image/jpeg");
        QTest::newRow("small stays") << QSize(300, 200) << QByteArray("PNG") << ModelImage::DefaultMaxSide
                                     << QSize(300, 200) << QStringLiteral("image/png");
        QTest::newRow("setting") << QSize(2000, 1000) << QByteArray("PNG") << 256 << QSize(256, 128)
                                 << QStringLiteral("image/png");
    }
    void largeImagesAreScaledToTheLongestSide()
    {
        QFETCH(QSize, size);
        QFETCH(QByteArray, format);
        QFETCH(int, maxSide);
        QFETCH(QSize, sent);
        QFETCH(QString, type);
        const QString name = QStringLiteral("picture.") + QString::fromLatin1(format).toLower();
        QVERIFY(writeImage(folder() + QLatin1Char('/') + name, picture(size.width(), size.height()), format));
        QString error;
        const QString url = ModelImage::dataUrl(SandboxFolder(folder()), name, maxSide, &error);
        QVERIFY2(!url.isEmpty(), qPrintable(error));
        QString sentType;
        const QImage decoded = decodeDataUrl(url, &sentType);
        QCOMPARE(decoded.size(), sent);
        QCOMPARE(sentType, type);
    }

    void whatCannotBeSentSaysWhy()
    {
        const SandboxFolder files(folder());
        QFile text(folder() + QStringLiteral("/notes.png"));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("this is text, whatever the name says\n");
        text.close();
        QString error;
        QVERIFY(ModelImage::dataUrl(files, QStringLiteral("notes.png"), 512, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("not an image Sandpiper can read")), qPrintable(error));
        QVERIFY(error.contains(QLatin1String("PNG")));
        QVERIFY(!ModelImage::check(text.fileName()).isEmpty());

        QVERIFY(ModelImage::dataUrl(files, QStringLiteral("gone.png"), 512, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("no longer there")), qPrintable(error));

        // 100 MB are refused before a byte is decoded (a sparse file: nothing is written).
        QFile huge(folder() + QStringLiteral("/huge.png"));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        QVERIFY(huge.resize(100LL * 1024 * 1024));
        huge.close();
        QVERIFY(ModelImage::check(huge.fileName()).contains(QLatin1String("100 MiB")));
        QVERIFY(ModelImage::dataUrl(files, QStringLiteral("huge.png"), 512, &error).isEmpty());
        QVERIFY(!error.isEmpty());

        // The sandbox may put a link where an image was: it is not followed.
        const QString outside = m_dir->filePath(QStringLiteral("secret.png"));
        QVERIFY(writeImage(outside, picture(10, 10), "PNG"));
        QVERIFY(QFile::link(outside, folder() + QStringLiteral("/link.png")));
        error.clear();
        QVERIFY(ModelImage::dataUrl(files, QStringLiteral("link.png"), 512, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("link")), qPrintable(error));
    }

    void serversSayWhetherAModelTakesImages()
    {
        const auto body = [](const FakeResponse &response) {
            return QJsonDocument::fromJson(response.body()).object();
        };
        QCOMPARE(ContextWindowProbe::fromProps(body(FS::llamaCppProps(4096, true))).acceptsImages, true);
        QCOMPARE(ContextWindowProbe::fromProps(body(FS::llamaCppProps(4096, false))).acceptsImages, false);
        QCOMPARE(ContextWindowProbe::fromProps(QJsonObject{}).acceptsImages, std::nullopt); // an older llama.cpp
        const QString model = QStringLiteral("qwen2.5vl:7b");
        QCOMPARE(
            ContextWindowProbe::fromOllama(body(FS::ollamaShow(32768, std::nullopt, true)), {}, model).acceptsImages,
            true);
        QCOMPARE(ContextWindowProbe::fromOllama(body(FS::ollamaShow(32768)), {}, model).acceptsImages, false);
        QCOMPARE(
            ContextWindowProbe::fromLmStudio(body(FS::lmStudioModels(model, 32768, 4096, true)), model).acceptsImages,
            true);
        QCOMPARE(ContextWindowProbe::fromLmStudio(body(FS::lmStudioModels(model, 32768, 4096)), model).acceptsImages,
                 false);
    }

    void theUserSaysPerModel()
    {
        const QHash<QString, bool> models =
            Settings::parseImageModels(QStringLiteral("qwen2.5vl:7b = yes\nllama3.1=no\n*=Yes\nbroken\n=yes"));
        QCOMPARE(models.size(), 3);
        QCOMPARE(models.value(QStringLiteral("qwen2.5vl:7b")), true);
        QCOMPARE(models.value(QStringLiteral("llama3.1"), true), false);
        QCOMPARE(Settings::parseImageModels(Settings::formatImageModels(models)), models);

        QTemporaryDir profile;
        Settings settings(profile.path());
        settings.setValue(QStringLiteral("providers/ollama/image_models"), QStringLiteral("llava=yes"));
        QCOMPARE(settings.provider(QStringLiteral("ollama")).imageModels.value(QStringLiteral("llava")), true);
        QCOMPARE(AgentSettings::read(settings).imageMaxSide, ModelImage::DefaultMaxSide);
        settings.setValue(QStringLiteral("images/max_side"), 768);
        QCOMPARE(AgentSettings::read(settings).imageMaxSide, 768);
    }

    void aVisionModelGetsTheImagesAsDataUrls()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768, true));
        m_server->enqueue(FS::openAiText(QStringLiteral("The axis has no label.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Still no label.")));
        QVERIFY(writeImage(folder() + QStringLiteral("/chart.png"), picture(2048, 1024), "PNG"));
        AgentLoop loop(config(), m_store.get(), m_conversation);
        Recorder recorder(&loop);
        loop.sendWithAttachments(QStringLiteral("What is wrong with this chart?"), {}, {QStringLiteral("chart.png")});
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);

        const QList<RecordedRequest> chats = m_server->chatRequests();
        QCOMPARE(chats.size(), 1);
        const QJsonValue content = lastUserContent(chats.first());
        QVERIFY(content.isArray());
        const QString text = content[0][QLatin1String("text")].toString();
        QVERIFY2(text.endsWith(QLatin1String("What is wrong with this chart?")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("chart.png")), qPrintable(text)); // the code knows where it is
        const QStringList urls = imageUrlsIn(content);
        QCOMPARE(urls.size(), 1);
        QString type;
        QCOMPARE(decodeDataUrl(urls.first(), &type).size(), QSize(512, 256));
        QCOMPARE(type, QStringLiteral("image/png"));

        // Stored with the message, and sent again with the history.
        const auto stored = m_store->messages(m_conversation);
        QVERIFY(stored);
        QCOMPARE(stored->first().images, QStringList{QStringLiteral("chart.png")});
        loop.send(QStringLiteral("And now?"));
        QVERIFY(recorder.waitForTurn(2));
        QCOMPARE(imageUrlsIn(lastUserContent(m_server->chatRequests().at(1))).size(), 0);
        const QJsonArray history = m_server->chatRequests().at(1).json().value(QLatin1String("messages")).toArray();
        QCOMPARE(imageUrlsIn(history.at(1)[QLatin1String("content")]), urls);
    }

    void aModelWithoutVisionGetsNoRequestAndTheMessageComesBack()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768, false));
        QVERIFY(writeImage(folder() + QStringLiteral("/photo.jpg"), picture(64, 64), "JPEG"));
        AgentLoop loop(config(), m_store.get(), m_conversation);
        Recorder recorder(&loop);
        loop.sendWithAttachments(QStringLiteral("What is this?"), {QStringLiteral("data.csv")},
                                 {QStringLiteral("photo.jpg")});
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Failed);
        QVERIFY(m_server->chatRequests().isEmpty());
        const auto refused = recorder.ofKind(Kind::SendRefused);
        QCOMPARE(refused.size(), 1);
        QVERIFY2(refused.first().text.contains(QLatin1String("does not take images")),
                 qPrintable(refused.first().text));
        QCOMPARE(refused.first().message.content, QStringLiteral("What is this?"));
        QCOMPARE(refused.first().message.images, QStringList{QStringLiteral("photo.jpg")});
        QCOMPARE(refused.first().attachments, QStringList{QStringLiteral("data.csv")});
        QVERIFY(loop.history().isEmpty());
        QVERIFY(m_store->messages(m_conversation)->isEmpty());
    }

    void theUsersSettingWinsOverTheServer()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768, false));
        m_server->enqueue(FS::openAiText(QStringLiteral("A cat.")));
        QVERIFY(writeImage(folder() + QStringLiteral("/photo.jpg"), picture(64, 64), "JPEG"));
        AgentConfig c = config();
        c.provider.imageModels.insert(c.provider.model, true);
        AgentLoop loop(c, m_store.get(), m_conversation);
        Recorder recorder(&loop);
        loop.sendWithAttachments(QStringLiteral("What is this?"), {}, {QStringLiteral("photo.jpg")});
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        QCOMPARE(imageUrlsIn(lastUserContent(m_server->chatRequests().first())).size(), 1);
    }

    void aModelThatRefusesImagesAfterAllIsSentTextFromThenOn()
    {
        // Unknown to the probe (no /props here): the images are sent, and the server refuses them
        // as llama.cpp without --mmproj does (HTTP 500, "server_error").
        m_server->enqueue(FS::httpError(
            500, QStringLiteral("image input is not supported - hint: if this is unexpected, you may need to provide "
                                "the mmproj")));
        m_server->enqueue(FS::openAiText(QStringLiteral("I cannot see images, but the file is in /mnt/data.")));
        QVERIFY(writeImage(folder() + QStringLiteral("/chart.png"), picture(64, 64), "PNG"));
        AgentConfig c = config(QStringLiteral("custom"));
        c.provider.maxRetries = 3; // not tried again: the answer would be the same
        AgentLoop loop(c, m_store.get(), m_conversation);
        Recorder recorder(&loop);
        loop.sendWithAttachments(QStringLiteral("Look at this."), {}, {QStringLiteral("chart.png")});
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Failed);
        QCOMPARE(m_server->chatRequests().size(), 1);
        QVERIFY(recorder.ofKind(Kind::Retrying).isEmpty());
        const auto errors = recorder.ofKind(Kind::Error);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().text.contains(QLatin1String("image input is not supported")),
                 qPrintable(errors.first().text));
        QVERIFY2(errors.first().text.contains(QLatin1String("without them")), qPrintable(errors.first().text));
        QCOMPARE(imageUrlsIn(lastUserContent(m_server->chatRequests().first())).size(), 1);

        // The conversation goes on without the images, and the model is told which it does not see.
        loop.send(QStringLiteral("Go on without it."));
        QVERIFY(recorder.waitForTurn(2));
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        const QJsonArray history = m_server->chatRequests().at(1).json().value(QLatin1String("messages")).toArray();
        QVERIFY(history.at(1)[QLatin1String("content")].isString());
        QVERIFY2(history.at(1)[QLatin1String("content")].toString().contains(
                     QLatin1String("The image chart.png is not shown: this model does not take images.")),
                 qPrintable(history.at(1)[QLatin1String("content")].toString()));
        // And a new image to it is refused before a request is made.
        loop.sendWithAttachments(QStringLiteral("And this one?"), {}, {QStringLiteral("chart.png")});
        QVERIFY(recorder.waitForTurn(3));
        QCOMPARE(recorder.ofKind(Kind::SendRefused).size(), 1);
        QCOMPARE(m_server->chatRequests().size(), 2);
    }

    void anImageThatCannotBeReadIsRefusedBeforeSending()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768, true));
        QFile broken(folder() + QStringLiteral("/broken.png"));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write(QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(64, 'x'));
        broken.close();
        AgentLoop loop(config(), m_store.get(), m_conversation);
        Recorder recorder(&loop);
        loop.sendWithAttachments(QStringLiteral("Look."), {}, {QStringLiteral("broken.png")});
        QVERIFY(recorder.waitForTurn());
        const auto refused = recorder.ofKind(Kind::SendRefused);
        QCOMPARE(refused.size(), 1);
        QVERIFY2(refused.first().text.contains(QLatin1String("broken.png")), qPrintable(refused.first().text));
        QVERIFY(m_server->chatRequests().isEmpty());
    }

    void aDeletedImageIsNamedInsteadOfSent()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768, true));
        m_server->enqueue(FS::openAiText(QStringLiteral("Nice.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Fine.")));
        const QString path = folder() + QStringLiteral("/figure.png");
        QVERIFY(writeImage(path, picture(64, 64), "PNG"));
        ChatMessage earlier = chatMessage(ChatMessage::Role::User, QStringLiteral("See this."));
        earlier.images = {QStringLiteral("figure.png")};
        QVERIFY(QFile::remove(path));
        AgentLoop loop(config(), m_store.get(), m_conversation);
        loop.setHistory({earlier, chatMessage(ChatMessage::Role::Assistant, QStringLiteral("Seen."))});
        Recorder recorder(&loop);
        loop.send(QStringLiteral("And now?"));
        QVERIFY(recorder.waitForTurn());
        QCOMPARE(recorder.end(), AgentEvent::End::Completed);
        const QJsonArray history = m_server->chatRequests().first().json().value(QLatin1String("messages")).toArray();
        QVERIFY2(history.at(1)[QLatin1String("content")].toString().contains(
                     QLatin1String("[Not shown: The image figure.png is no longer there.]")),
                 qPrintable(history.at(1)[QLatin1String("content")].toString()));
    }

    void anEditedMessageKeepsItsImages()
    {
        m_server->setRoute("GET", "/props", FS::llamaCppProps(32768, true));
        m_server->enqueue(FS::openAiText(QStringLiteral("A chart.")));
        m_server->enqueue(FS::openAiText(QStringLiteral("Still a chart.")));
        const QString photo = m_dir->filePath(QStringLiteral("chart.png"));
        QVERIFY(writeImage(photo, picture(32, 32), "PNG"));
        {
            ConversationSession session(m_conversation, m_store.get(), config());
            QVERIFY(session.load());
            QSignalSpy finished(&session, &ConversationSession::turnFinished);
            QVERIFY(session.attachImage(photo));
            session.send(QStringLiteral("What is this?"));
            QVERIFY(finished.wait(20000));
            const qint64 question = m_store->messages(m_conversation)->first().id;
            QVERIFY(session.resendFrom(question, QStringLiteral("What is this, exactly?")));
            QVERIFY(finished.wait(20000));
        }
        QVERIFY(AgentThread::waitForRetiredThreads(std::chrono::seconds(20)));
        QCOMPARE(m_server->chatRequests().size(), 2);
        const QJsonValue content = lastUserContent(m_server->chatRequests().at(1));
        QCOMPARE(imageUrlsIn(content).size(), 1);
        const QString text = content[0][QLatin1String("text")].toString();
        QVERIFY2(text.endsWith(QLatin1String("What is this, exactly?")), qPrintable(text));
        const auto stored = m_store->messages(m_conversation);
        QCOMPARE(stored->size(), 2);
        QCOMPARE(stored->first().images, QStringList{QStringLiteral("chart.png")});
    }

    void theSessionKeepsImagesForTheNextMessage()
    {
        ConversationSession session(m_conversation, m_store.get(), config());
        QVERIFY(session.load());
        // A non-image is refused as an image, clearly.
        const QString notes = m_dir->filePath(QStringLiteral("notes.txt"));
        QFile text(notes);
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("plain text\n");
        text.close();
        const auto refused = session.attachImage(notes);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QLatin1String("not an image")), qPrintable(refused.error().message));
        QVERIFY(session.state().pendingImages.isEmpty());

        const QString photo = m_dir->filePath(QStringLiteral("photo.png"));
        QVERIFY(writeImage(photo, picture(32, 32), "PNG"));
        QVERIFY(session.attachImage(photo));
        QCOMPARE(session.state().pendingImages, QStringList{QStringLiteral("photo.png")});
        QVERIFY(QFileInfo::exists(folder() + QStringLiteral("/photo.png"))); // in /mnt/data for the code

        // A figure of the conversation, shown to the model; a name that is not there is refused.
        QVERIFY(writeImage(folder() + QStringLiteral("/figures/figure-1.png"), picture(32, 32), "PNG"));
        QVERIFY(session.showImage(QStringLiteral("figures/figure-1.png")));
        QVERIFY(session.showImage(QStringLiteral("figures/figure-1.png"))); // once is enough
        QVERIFY(!session.showImage(QStringLiteral("figures/none.png")));
        QVERIFY(!session.showImage(QStringLiteral("../photo.png")));
        QCOMPARE(session.state().pendingImages,
                 (QStringList{QStringLiteral("photo.png"), QStringLiteral("figures/figure-1.png")}));
        session.removePendingImage(QStringLiteral("photo.png"));
        QCOMPARE(session.state().pendingImages, QStringList{QStringLiteral("figures/figure-1.png")});

        // A message the model could not take comes back whole.
        QSignalSpy returned(&session, &ConversationSession::draftReturned);
        AgentEvent back;
        back.kind = Kind::SendRefused;
        back.text = QStringLiteral("The model does not take images.");
        back.message.content = QStringLiteral("What is this?");
        back.message.images = {QStringLiteral("photo.png")};
        back.attachments = {QStringLiteral("data.csv")};
        session.handle(back);
        QCOMPARE(returned.size(), 1);
        QCOMPARE(returned.first().first().toString(), QStringLiteral("What is this?"));
        QCOMPARE(session.state().pendingImages,
                 (QStringList{QStringLiteral("photo.png"), QStringLiteral("figures/figure-1.png")}));
        QCOMPARE(session.state().pendingAttachments, QStringList{QStringLiteral("data.csv")});
    }
};

QTEST_GUILESS_MAIN(TestImagesIn)
#include "tst_imagesin.moc"
