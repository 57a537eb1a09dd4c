// Images in (issue 17), in the app: pasting (Ctrl+V) and dropping images into the composer, their
// thumbnails, sending them to a vision model (the fake server records the request), and "Show to
// the model" on a figure. With SANDPIPER_SCREENSHOT_DIR set, also saves the composer's screenshot.
#include "fakellmserver.h"
#include "fakestreams.h"
#include "screenshot.h"
#include "uiwait.h"
#include "windowfixture.h"

#include <agent/agentthread.h>
#include <chat/chatview.h>
#include <chat/figureview.h>
#include <chat/messagewidget.h>
#include <composer.h>
#include <mainwindow.h>
#include <session/conversationsession.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDir>
#include <QJsonArray>
#include <QMenu>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QUrl>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

QImage screenshotLike(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(QColor(0x3d, 0x7b, 0xe0));
    for (int y = 0; y < height; y += 16)
        for (int x = 0; x < width; ++x)
            image.setPixel(x, y, qRgb(255, 255, 255));
    return image;
}

void paste(QMimeData *data, QPlainTextEdit *editor)
{
    QApplication::clipboard()->setMimeData(data);
    editor->setFocus();
    QTest::keyClick(editor, Qt::Key_V, Qt::ControlModifier);
}

// The thumbnails on screen.
QList<QToolButton *> thumbnails(Composer *composer)
{
    QList<QToolButton *> shown;
    for (QToolButton *button : composer->imageStrip()->findChildren<QToolButton *>()) {
        if (button->isVisible())
            shown << button;
    }
    return shown;
}

} // namespace

class TestComposerImages : public QObject
{
    Q_OBJECT

    WindowFixture m_fixture;

private Q_SLOTS:
    void init()
    {
        QCOMPARE(m_fixture.start(QStringLiteral("vision-model"),
                                 {QStringLiteral("providers/custom/image_models=vision-model=yes"),
                                  QStringLiteral("images/max_side=400"), QStringLiteral("sandbox/enabled=false"),
                                  QStringLiteral("appearance/theme=light")}),
                 QString());
    }

    void cleanup() { QVERIFY(m_fixture.finish()); }

    void ctrlVTellsImagesFilesAndTextApart()
    {
        Composer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        QSignalSpy images(&composer, &Composer::imagePasted);
        QSignalSpy files(&composer, &Composer::filesDropped);
        QSignalSpy refused(&composer, &Composer::pasteRefused);

        auto *image = new QMimeData;
        image->setImageData(screenshotLike(120, 80));
        paste(image, composer.editor());
        QCOMPARE(images.size(), 1);
        QCOMPARE(qvariant_cast<QImage>(images.first().first()).size(), QSize(120, 80));
        QVERIFY(composer.editor()->toPlainText().isEmpty());

        auto *copied = new QMimeData;
        copied->setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/report.pdf"))});
        copied->setText(QStringLiteral("/tmp/report.pdf"));
        paste(copied, composer.editor());
        QCOMPARE(files.size(), 1);
        QCOMPARE(files.first().first().toStringList(), QStringList{QStringLiteral("/tmp/report.pdf")});
        QVERIFY(composer.editor()->toPlainText().isEmpty());

        // An image in a format Qt has no reader for: said so, nothing inserted.
        auto *heic = new QMimeData;
        heic->setData(QStringLiteral("image/heic"), QByteArray("\0\0\0\x18"
                                                               "ftypheic",
                                                               12));
        paste(heic, composer.editor());
        QCOMPARE(refused.size(), 1);
        QVERIFY2(refused.first().first().toString().contains(QLatin1String("image/heic")),
                 qPrintable(refused.first().first().toString()));
        QCOMPARE(images.size(), 1);

        auto *text = new QMimeData;
        text->setText(QStringLiteral("plain words"));
        paste(text, composer.editor());
        QCOMPARE(composer.editor()->toPlainText(), QStringLiteral("plain words"));
        QCOMPARE(images.size(), 1);
        QCOMPARE(files.size(), 1);
    }

    void thumbnailsAreNamedAndTakenOffWithAClick()
    {
        QTemporaryDir folder;
        QVERIFY(screenshotLike(300, 200).save(folder.filePath(QStringLiteral("a.png"))));
        QVERIFY(screenshotLike(100, 300).save(folder.filePath(QStringLiteral("b.png"))));
        Composer composer;
        composer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&composer));
        QVERIFY(!composer.imageStrip()->isVisible());
        composer.setImages({QStringLiteral("a.png"), QStringLiteral("b.png"), QStringLiteral("gone.png")},
                           folder.path());
        QVERIFY(composer.imageStrip()->isVisible());
        QTRY_COMPARE(thumbnails(&composer).size(), 3);
        const auto buttons = thumbnails(&composer);
        QVERIFY(!buttons.at(0)->icon().isNull());
        QVERIFY(buttons.at(0)->iconSize().width() <= 96 && buttons.at(0)->iconSize().height() <= 72);
        QVERIFY(buttons.at(0)->accessibleName().contains(QLatin1String("a.png")));
        QVERIFY(buttons.at(2)->text().contains(QLatin1String("gone.png"))); // shown, not lost
        QVERIFY(buttons.at(1)->focusPolicy() & Qt::TabFocus);

        QSignalSpy removed(&composer, &Composer::imageRemoved);
        QTest::mouseClick(buttons.at(1), Qt::LeftButton);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.first().first().toString(), QStringLiteral("b.png"));

        // With an image and no text the message can still go.
        QSignalSpy sent(&composer, &Composer::sendRequested);
        QTest::keyClick(composer.editor(), Qt::Key_Return);
        QCOMPARE(sent.size(), 1);
        composer.setImages({}, folder.path());
        QVERIFY(!composer.imageStrip()->isVisible());
    }

    void aPastedImageGoesToTheModelAndStaysWithTheMessage()
    {
        m_fixture.server().enqueue(FS::openAiText(QStringLiteral("The blue bars have white lines across them.")));
        auto window = m_fixture.openWindow({1000, 700});
        QVERIFY(window);
        auto *image = new QMimeData;
        image->setImageData(screenshotLike(1600, 900));
        paste(image, window->composer()->editor());
        ConversationSession *session = window->currentSession();
        QVERIFY(session);
        QCOMPARE(session->state().pendingImages.size(), 1);
        const QString name = session->state().pendingImages.first();
        QVERIFY2(name.startsWith(QLatin1String("pasted-")) && name.endsWith(QLatin1String(".png")), qPrintable(name));
        QVERIFY(QFileInfo::exists(session->folder() + QLatin1Char('/') + name)); // in /mnt/data for the code
        QTRY_COMPARE(thumbnails(window->composer()).size(), 1);
        // A second one, dropped as a file.
        QTemporaryDir elsewhere;
        const QString photo = elsewhere.filePath(QStringLiteral("photo.jpg"));
        QImage gradient(640, 480, QImage::Format_RGB32);
        for (int y = 0; y < gradient.height(); ++y)
            for (int x = 0; x < gradient.width(); ++x)
                gradient.setPixel(x, y, qRgb(x * 255 / 640, 120, y * 255 / 480));
        QVERIFY(gradient.save(photo, "JPEG"));
        Q_EMIT window->composer()->filesDropped({photo});
        QCOMPARE(session->state().pendingImages, (QStringList{name, QStringLiteral("photo.jpg")}));
        QTRY_COMPARE(thumbnails(window->composer()).size(), 2);
        QTest::keyClicks(window->composer()->editor(), QStringLiteral("What do you see?"));
        saveScreenshot(window->composer(), QStringLiteral("composer-images-light.png"));

        QTest::keyClick(window->composer()->editor(), Qt::Key_Return);
        QVERIFY(waitUntil([&] { return !session->isBusy() && !m_fixture.server().chatRequests().isEmpty(); }, 20000));
        const QJsonArray messages =
            m_fixture.server().chatRequests().first().json().value(QLatin1String("messages")).toArray();
        const QJsonArray parts = messages.last()[QLatin1String("content")].toArray();
        QCOMPARE(parts.size(), 3);
        QVERIFY(parts[2][QLatin1String("image_url")][QLatin1String("url")].toString().startsWith(
            QLatin1String("data:image/jpeg;base64,")));
        const QString url = parts[1][QLatin1String("image_url")][QLatin1String("url")].toString();
        QVERIFY(url.startsWith(QLatin1String("data:image/png;base64,")));
        const QImage sent =
            QImage::fromData(QByteArray::fromBase64(url.mid(url.indexOf(QLatin1Char(',')) + 1).toLatin1()));
        QCOMPARE(sent.size(), QSize(400, 225)); // the setting's longest side
        QVERIFY(session->state().pendingImages.isEmpty());
        QTRY_VERIFY(thumbnails(window->composer()).isEmpty());

        // The message shows its image, and keeps it in the store.
        QTRY_VERIFY(!window->chatView()->findChildren<MessageWidget *>().isEmpty());
        const auto figures = window->chatView()->findChildren<FigureView *>();
        QCOMPARE(figures.size(), 2);
        QCOMPARE(figures.first()->name(), name);
        QTest::qWait(200); // the answer's last frame
        saveScreenshot(window->chatView(), QStringLiteral("chat-images-light.png"));
        QCOMPARE(m_fixture.store()->messages(session->id())->first().images,
                 (QStringList{name, QStringLiteral("photo.jpg")}));
    }

    void anImageTooLargeForTheModelIsAttachedAsAFileAndSaysSo()
    {
        auto window = m_fixture.openWindow({1000, 700});
        QVERIFY(window);
        window->newConversation();
        QTemporaryDir elsewhere;
        // 100 MB that look like a PNG by their name: refused as an image before a byte is decoded.
        QFile huge(elsewhere.filePath(QStringLiteral("scan.png")));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        QVERIFY(huge.resize(100LL * 1024 * 1024));
        huge.close();
        Q_EMIT window->composer()->filesDropped({huge.fileName()});
        ConversationSession *session = window->currentSession();
        QVERIFY(session->state().pendingImages.isEmpty());
        QCOMPARE(session->state().pendingAttachments, QStringList{QStringLiteral("scan.png")});
        const QString message = window->statusBar()->currentMessage();
        QVERIFY2(message.contains(QLatin1String("not shown to the model")) &&
                     message.contains(QLatin1String("100 MiB")),
                 qPrintable(message));
    }

    void aModelWithoutVisionGivesTheMessageBack()
    {
        QCOMPARE(m_fixture.settings()->addOverride(QStringLiteral("providers/custom/image_models=vision-model=no")),
                 QString());
        auto window = m_fixture.openWindow({1000, 700});
        QVERIFY(window);
        auto *image = new QMimeData;
        image->setImageData(screenshotLike(64, 64));
        paste(image, window->composer()->editor());
        QTest::keyClicks(window->composer()->editor(), QStringLiteral("Look at this"));
        QTest::keyClick(window->composer()->editor(), Qt::Key_Return);
        ConversationSession *session = window->currentSession();
        QVERIFY(waitUntil([&] { return !session->isBusy() && !session->state().pendingImages.isEmpty(); }, 20000));
        QVERIFY(m_fixture.server().chatRequests().isEmpty());
        QCOMPARE(window->composer()->editor()->toPlainText(), QStringLiteral("Look at this"));
        QTRY_COMPARE(thumbnails(window->composer()).size(), 1);
    }

    void showToTheModelQueuesAFigure()
    {
        auto window = m_fixture.openWindow({1000, 700});
        QVERIFY(window);
        window->newConversation();
        ConversationSession *session = window->currentSession();
        QVERIFY(session);
        const QString figure = QStringLiteral("figures/figure-1.png");
        QDir().mkpath(session->folder() + QStringLiteral("/figures"));
        QVERIFY(screenshotLike(320, 200).save(session->folder() + QLatin1Char('/') + figure));
        // A run that drew a figure, as the agent reports it.
        ToolCall call{QStringLiteral("call_1"), QStringLiteral("execute_python_code"), QStringLiteral("{}")};
        AgentEvent proposed;
        proposed.kind = AgentEvent::Kind::ToolCallProposed;
        proposed.call = call;
        proposed.key = CallKey{1, 0};
        session->handle(proposed);
        ExecutionResult result;
        result.status = ExecutionResult::Status::Ok;
        result.figures = {figure};
        AgentEvent finished;
        finished.kind = AgentEvent::Kind::ToolFinished;
        finished.call = call;
        finished.key = proposed.key;
        finished.ran = finished.success = true;
        finished.result = result;
        session->handle(finished);
        FigureView *view = nullptr;
        QTRY_VERIFY((view = window->chatView()->findChildren<FigureView *>().value(0)) != nullptr);

        // The figure's context menu has the action; choosing it queues the figure.
        QString offered;
        QTimer::singleShot(0, this, [&offered] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            if (!menu)
                return;
            for (QAction *action : menu->actions()) {
                offered += action->text() + QLatin1Char('|');
                if (action->text() == QLatin1String("Show to the model"))
                    action->trigger();
            }
            menu->close();
        });
        QContextMenuEvent event(QContextMenuEvent::Keyboard, QPoint(5, 5), view->mapToGlobal(QPoint(5, 5)));
        QApplication::sendEvent(view, &event);
        QVERIFY2(offered.contains(QLatin1String("Show to the model")), qPrintable(offered));
        QCOMPARE(session->state().pendingImages, QStringList{figure});
        QTRY_COMPARE(thumbnails(window->composer()).size(), 1);
    }
};

QTEST_MAIN(TestComposerImages)
#include "tst_composerimages.moc"
