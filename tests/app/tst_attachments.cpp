// Files and images given to a conversation: chosen, dropped, pasted, or a figure shown to the
// model; what goes as an image, what as a file, and what the user is told.
#include "dialogdriver.h"
#include "sandboxfiles.h"
#include "testprofile.h"

#include <attachments.h>
#include <session/conversationsession.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>

#include <QDir>
#include <QFile>
#include <QStatusBar>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestAttachments : public QObject
{
    Q_OBJECT

    QWidget m_window; // over the message boxes
    QStatusBar *m_statusBar = new QStatusBar(&m_window);
    TestProfile m_profile;
    ConversationSession *m_session = nullptr;

private Q_SLOTS:
    void init()
    {
        QCOMPARE(m_profile.open(TestProfile::offline()), QString());
        const auto session = m_profile.sessions()->create();
        QVERIFY(session);
        m_session = *session;
    }

    void cleanup() { QVERIFY(m_profile.close()); }

    void droppedImagesGoToTheModelAndTheRestAsFiles()
    {
        const QString image = m_profile.filePath(QStringLiteral("picture.png"));
        const QString notes = m_profile.filePath(QStringLiteral("notes.txt"));
        const QString broken = m_profile.filePath(QStringLiteral("broken.png"));
        QVERIFY(writeFile(image, pngImage(32, 24)));
        QVERIFY(writeFile(notes, "a b c\n"));
        QVERIFY(writeFile(broken, "not a picture"));
        Attachments attachments(&m_window, m_statusBar);
        attachments.drop(m_session, {image, notes, broken});
        QCOMPARE(m_session->state().pendingImages, QStringList{QStringLiteral("picture.png")});
        QCOMPARE(m_session->state().pendingAttachments,
                 (QStringList{QStringLiteral("notes.txt"), QStringLiteral("broken.png")}));
        // An image the model cannot be shown still serves the code, and the user is told.
        QVERIFY2(m_statusBar->currentMessage().startsWith(
                     QLatin1String("broken.png is attached as a file, not shown to the model: ")),
                 qPrintable(m_statusBar->currentMessage()));
    }

    void chosenFilesGoAsFilesEvenImages()
    {
        const QString image = m_profile.filePath(QStringLiteral("picture.png"));
        QVERIFY(writeFile(image, pngImage(32, 24)));
        Attachments attachments(&m_window, m_statusBar);
        attachments.attach(m_session, {image});
        QCOMPARE(m_session->state().pendingAttachments, QStringList{QStringLiteral("picture.png")});
        QVERIFY(m_session->state().pendingImages.isEmpty());
    }

    void aPastedImageGoesAsAnImageOfItsOwnName()
    {
        Attachments attachments(&m_window, m_statusBar);
        attachments.attachPasted(m_session, picture(32, 24));
        const QStringList images = m_session->state().pendingImages;
        QCOMPARE(images.size(), 1);
        QVERIFY2(images.constFirst().startsWith(QLatin1String("pasted-")) &&
                     images.constFirst().endsWith(QLatin1String(".png")),
                 qPrintable(images.constFirst()));
        QVERIFY(QFile::exists(QDir(m_session->folder()).filePath(images.constFirst())));
    }

    void aFigureOfTheFolderIsShownAndAMissingOneRefused()
    {
        QVERIFY(writeFile(QDir(m_session->folder()).filePath(QStringLiteral("figure.png")), pngImage(32, 24)));
        Attachments attachments(&m_window, m_statusBar);
        QVERIFY(attachments.showToModel(m_session, QStringLiteral("figure.png")));
        QCOMPARE(m_session->state().pendingImages, QStringList{QStringLiteral("figure.png")});
        QCOMPARE(m_statusBar->currentMessage(), QStringLiteral("figure.png goes to the model with your next message."));

        DialogDriver driver;
        QString text;
        QStringList buttons;
        driver.answer(&text, &buttons, QStringLiteral("OK"));
        QVERIFY(!attachments.showToModel(m_session, QStringLiteral("gone.png")));
        QVERIFY(driver.done());
        QCOMPARE(text, QStringLiteral("“gone.png” does not exist in the conversation's folder."));
        QCOMPARE(m_session->state().pendingImages, QStringList{QStringLiteral("figure.png")});
    }
};

QTEST_MAIN(TestAttachments)
#include "tst_attachments.moc"
