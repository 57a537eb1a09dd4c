// The settings' Models tab (issue 26): the models on this computer with what their headers say,
// a file added, how llama-server runs the one chosen, and "Use" handing it to Providers.
#include "fakehub.h"
#include "llamaserver.h"
#include "screenshot.h"
#include "settingsprofile.h"
#include "widgetlookup.h"

#include <localmodelstatus.h>
#include <settingsdialog.h>
#include <settingspages/modeldownloadpanel.h>
#include <settingspages/modelsettingspage.h>
#include <welcomepage.h>

#include <localmodels/localrunner.h>
#include <localmodels/recommendedmodels.h>
#include <session/localmodelhost.h>
#include <session/modeldownloads.h>

#include <QApplication>
#include <QComboBox>
#include <QCoroTask>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

using namespace Sandpiper;
using namespace Sandpiper::Test;

class TestModelSettingsPage : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home; // no other application's models of this machine in the list
    QString m_tiny;       // the tiny model, found before HOME moves
    QString m_launcher;   // a program that starts the real llama-server, written then too

    // Sandpiper's own models folder of PROFILE with the tiny model and a copy cut short.
    void fillShelf(SettingsProfile &profile)
    {
        const QString models = profile.settings()->localModelsFolder();
        QVERIFY(QDir().mkpath(models));
        QVERIFY(QFile::copy(m_tiny, models + QStringLiteral("/tiny.gguf")));
        QFile tiny(m_tiny);
        QVERIFY(tiny.open(QIODevice::ReadOnly));
        QFile cut(models + QStringLiteral("/cut.gguf"));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(tiny.read(tiny.size() / 2));
    }

    static QTreeWidgetItem *row(QTreeWidget *list, const QString &name)
    {
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            if (list->topLevelItem(i)->text(0) == name)
                return list->topLevelItem(i);
        }
        return nullptr;
    }

    // HUB serves the tiny model as test/Tiny-GGUF to PROFILE's downloads, dropped half way once:
    // the download waits a second before it goes on, the moment a test acts in.
    void serveTinyRepository(FakeHub &hub, SettingsProfile &profile)
    {
        QVERIFY(hub.listen());
        hub.addRepository(QStringLiteral("test/Tiny-GGUF"));
        hub.addFile(QStringLiteral("test/Tiny-GGUF"), {QStringLiteral("tiny-Q4_K_M.gguf"), m_tiny, {}, 1, 200000});
        qputenv("HF_ENDPOINT", hub.endpoint().toString().toUtf8());
        qputenv("HF_TOKEN", "");
        QVERIFY(profile.settings()->addOverride(QStringLiteral("local/hub_hosts=") + hub.fileHost()).isEmpty());
    }

    // HUB serving BEST, the model the welcome page recommends for this computer, its one file
    // dropped once half way (the download goes on after a wait), and PROFILE with a llama-server to
    // run it: the file's name.
    QString serveRecommended(const RecommendedModel &best, FakeHub &hub, SettingsProfile &profile)
    {
        const QString file = QStringLiteral("model-%1.gguf").arg(best.quantization);
        if (!hub.listen())
            QTest::qFail("the fake hub cannot listen", __FILE__, __LINE__);
        hub.addRepository(best.repository);
        hub.addFile(best.repository, {file, m_tiny, {}, 1, 200000});
        qputenv("HF_ENDPOINT", hub.endpoint().toString().toUtf8());
        qputenv("HF_TOKEN", "");
        if (!profile.settings()->addOverride(QStringLiteral("local/hub_hosts=") + hub.fileHost()).isEmpty() ||
            !profile.settings()->addOverride(QStringLiteral("local/server=/usr/bin/llama-server")).isEmpty())
            QTest::qFail("the profile refused the hub or the server", __FILE__, __LINE__);
        return file;
    }

    // PAGE as the window shows it with no provider set up, its look for servers done.
    static void startWelcome(WelcomePage &page)
    {
        page.setCandidates({});
        QSignalSpy scanned(&page, &WelcomePage::scanFinished);
        page.start(QStringLiteral("No provider is set up."));
        QVERIFY(!scanned.isEmpty() || scanned.wait(10000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDPIPER_REQUIRE_LLAMA();
        m_tiny = LlamaServer::modelPath();
        m_launcher = m_home.filePath(QStringLiteral("llama-server-launcher"));
        QCOMPARE(LlamaServer::writeLauncher(m_launcher), QString());
        qputenv("HOME", m_home.path().toUtf8());
        qunsetenv("HF_HOME");
        qunsetenv("HF_HUB_CACHE");
        qunsetenv("LLAMA_CACHE");
        qputenv("XDG_CACHE_HOME", m_home.filePath(QStringLiteral(".cache")).toUtf8());
    }

    // Each model with its header's facts; one cut short is listed with why, and cannot be used.
    void listsTheModelsWithTheirFacts()
    {
        SettingsProfile profile;
        fillShelf(profile);
        ModelSettingsPage page(profile.settings());
        QTreeWidget *list = page.modelList();
        QCOMPARE(list->topLevelItemCount(), 2);
        QTreeWidgetItem *tiny = row(list, QStringLiteral("tiny"));
        QVERIFY(tiny);
        QCOMPARE(tiny->text(1), QStringLiteral("F32"));
        QCOMPARE(tiny->text(2), QStringLiteral("117K"));
        QCOMPARE(tiny->text(4), QStringLiteral("yes"));
        QCOMPARE(tiny->text(6), QStringLiteral("Sandpiper"));
        list->setCurrentItem(tiny);
        QVERIFY(page.useButton()->isEnabled());
        QVERIFY2(page.flags()->text().contains(QLatin1String("--jinja")), qPrintable(page.flags()->text()));
        QVERIFY(page.problem()->isHidden());

        QTreeWidgetItem *cut = row(list, QStringLiteral("cut"));
        QVERIFY(cut);
        list->setCurrentItem(cut);
        QVERIFY(!page.useButton()->isEnabled());
        QVERIFY2(page.flags()->text().contains(QLatin1String("cut short")), qPrintable(page.flags()->text()));
        QVERIFY(cut->toolTip(0).contains(QLatin1String("cut short")));
    }

    // The flags say which llama-server runs the model and where its layers go: Debian's real
    // server, on this machine without a GPU, lists no device, so none is offloaded.
    void theFlagsSayTheServerAndTheDevice()
    {
        SettingsProfile profile;
        fillShelf(profile);
        const QString launcher = m_launcher;
        QVERIFY(profile.settings()->addOverride(QStringLiteral("local/server=") + launcher).isEmpty());
        ModelSettingsPage page(profile.settings());
        page.modelList()->setCurrentItem(row(page.modelList(), QStringLiteral("tiny")));
        // The server is asked for its devices off the GUI thread: the flags say so once it answered.
        QTRY_VERIFY_WITH_TIMEOUT(!page.flags()->text().contains(QLatin1String("looking for llama-server")), 20000);
        const QString flags = page.flags()->text();
        QVERIFY2(flags.contains(QStringLiteral("by llama-server at %1").arg(launcher)), qPrintable(flags));
        QVERIFY2(flags.contains(QLatin1String("on the processor: llama-server lists no GPU")), qPrintable(flags));
        QVERIFY2(flags.endsWith(QLatin1String("-ngl 0")), qPrintable(flags));
    }

    // More slots make each conversation's context shorter; the flags say so as the box changes.
    void theFlagsFollowTheSlots()
    {
        SettingsProfile profile;
        fillShelf(profile);
        ModelSettingsPage page(profile.settings());
        page.modelList()->setCurrentItem(row(page.modelList(), QStringLiteral("tiny")));
        auto *parallel = findNamed<QSpinBox>(&page, QStringLiteral("Conversations answered at once"));
        parallel->setValue(1);
        QVERIFY2(page.flags()->text().contains(QLatin1String("-np 1")), qPrintable(page.flags()->text()));
        parallel->setValue(3);
        QVERIFY2(page.flags()->text().contains(QLatin1String("-np 3")), qPrintable(page.flags()->text()));
    }

    // A file from elsewhere: refused with why when it is no GGUF model; else listed, chosen, and
    // its folder kept when the page is saved.
    void addsAFile()
    {
        SettingsProfile profile;
        ModelSettingsPage page(profile.settings());
        QCOMPARE(page.modelList()->topLevelItemCount(), 0);
        QVERIFY(page.problem()->isVisibleTo(&page));
        QTemporaryDir elsewhere;
        QTemporaryDir notes;
        const QString notAModel = notes.filePath(QStringLiteral("notes.gguf"));
        QFile text(notAModel);
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("just some words, long enough to be read as a header and refused\n");
        text.close();
        QVERIFY(!page.addModelFile(notAModel));
        QVERIFY2(page.problem()->text().contains(QLatin1String("cannot be added")), qPrintable(page.problem()->text()));
        QCOMPARE(page.modelList()->topLevelItemCount(), 0);

        const QString model = elsewhere.filePath(QStringLiteral("mine.gguf"));
        QVERIFY(QFile::copy(m_tiny, model));
        QVERIFY(page.addModelFile(model));
        QCOMPARE(page.modelList()->topLevelItemCount(), 1);
        QCOMPARE(page.modelList()->currentItem()->text(0), QStringLiteral("mine"));
        QCOMPARE(page.modelList()->currentItem()->text(6), QStringLiteral("added folder"));
        findNamed<QSpinBox>(&page, QStringLiteral("Stop the model after this many minutes without use"))->setValue(5);
        page.save();
        const auto saved = profile.reopened();
        QCOMPARE(saved->string(QStringLiteral("local/model_folders")), elsewhere.path());
        QCOMPARE(saved->integer(QStringLiteral("local/idle_minutes")), 5);
    }

    // The recommended models come first; a repository's quantizations are found by its name or by
    // a search, downloaded with progress, checked, and then listed among the models here, chosen.
    void downloadsFromTheHub()
    {
        FakeHub hub;
        QVERIFY(hub.listen());
        hub.addRepository(QStringLiteral("test/Tiny-GGUF"), 42);
        hub.addFile(QStringLiteral("test/Tiny-GGUF"), {QStringLiteral("tiny-Q4_K_M.gguf"), m_tiny});
        hub.addFile(QStringLiteral("test/Tiny-GGUF"), {QStringLiteral("tiny-Q8_0.gguf"), m_tiny});
        qputenv("HF_ENDPOINT", hub.endpoint().toString().toUtf8());
        qputenv("HF_TOKEN", "");
        SettingsProfile profile;
        QCOMPARE(profile.settings()->addOverride(QStringLiteral("local/hub_hosts=") + hub.fileHost()), QString());
        ModelSettingsPage page(profile.settings());
        ModelDownloadPanel *panel = page.downloads();
        QVERIFY(panel->choices()->topLevelItemCount() > 0); // recommended for this computer's memory
        QVERIFY(!panel->choices()->topLevelItem(0)->text(2).isEmpty());

        // A search lists repositories; one of them lists its quantizations.
        panel->findField()->setText(QStringLiteral("tiny"));
        QTest::keyClick(panel->findField(), Qt::Key_Return);
        QTRY_COMPARE(panel->choices()->topLevelItemCount(), 1);
        QCOMPARE(panel->choices()->topLevelItem(0)->text(0), QStringLiteral("test/Tiny-GGUF"));
        panel->choices()->setCurrentItem(panel->choices()->topLevelItem(0));
        QTest::mouseClick(panel->downloadButton(), Qt::LeftButton);
        QTRY_COMPARE(panel->choices()->topLevelItemCount(), 2);
        QVERIFY2(panel->choices()->topLevelItem(0)->text(0).contains(QLatin1String("Q4_K_M")),
                 qPrintable(panel->choices()->topLevelItem(0)->text(0)));

        // The name of a repository lists them at once; Download fetches the one chosen.
        panel->findField()->setText(QStringLiteral("test/Tiny-GGUF"));
        QTest::keyClick(panel->findField(), Qt::Key_Return);
        QTRY_VERIFY(panel->status()->text().contains(QLatin1String("choose a quantization")));
        panel->choices()->setCurrentItem(panel->choices()->topLevelItem(0));
        QSignalSpy downloaded(panel, &ModelDownloadPanel::downloaded);
        QTest::mouseClick(panel->downloadButton(), Qt::LeftButton);
        QVERIFY(downloaded.wait(30000));
        QVERIFY(panel->progress()->isVisibleTo(panel));
        QCOMPARE(panel->progress()->value(), panel->progress()->maximum());
        const QString path = downloaded.constFirst().constFirst().toString();
        QVERIFY2(path.startsWith(profile.settings()->localModelsFolder()), qPrintable(path));
        QCOMPARE(FakeHub::sha256Of(path), FakeHub::sha256Of(m_tiny));
        QCOMPARE(page.modelList()->currentItem()->text(0), QStringLiteral("tiny-Q4_K_M"));
        QVERIFY(page.useButton()->isEnabled());

        // A repository that is not there says so.
        panel->findField()->setText(QStringLiteral("test/Gone-GGUF"));
        QTest::keyClick(panel->findField(), Qt::Key_Return);
        QTRY_VERIFY(panel->status()->styleSheet().contains(QLatin1String("color")));
        qunsetenv("HF_ENDPOINT");
    }

    // Canceled from the keyboard, a download leaves no empty bar and no Pause or Cancel behind; the
    // keyboard is back on Download.
    void aCanceledDownloadLeavesNothingBehind()
    {
        FakeHub hub;
        SettingsProfile profile;
        serveTinyRepository(hub, profile);
        if (QTest::currentTestFailed())
            return;
        ModelDownloads downloads(profile.settings());
        SettingsDialog dialog(profile.settings(), nullptr, nullptr, &downloads);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.showPage(dialog.modelsPage());
        ModelDownloadPanel *panel = dialog.modelsPage()->downloads();
        panel->findField()->setText(QStringLiteral("test/Tiny-GGUF"));
        QTest::keyClick(panel->findField(), Qt::Key_Return);
        QTRY_VERIFY(panel->status()->text().contains(QLatin1String("choose a quantization")));
        panel->downloadButton()->setFocus();
        QTest::keyClick(panel->downloadButton(), Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(panel->progress()->value() > 0, 10000);
        QTRY_COMPARE(QApplication::focusWidget(), panel->pauseButton());
        panel->cancelButton()->setFocus();
        QTest::keyClick(panel->cancelButton(), Qt::Key_Space);
        QTRY_COMPARE(downloads.current()->state(), ModelDownload::State::Canceled);
        QVERIFY(!panel->progress()->isVisibleTo(panel));
        QVERIFY(!panel->pauseButton()->isVisibleTo(panel));
        QVERIFY(!panel->cancelButton()->isVisibleTo(panel));
        QVERIFY2(panel->status()->text().contains(QLatin1String("was canceled")), qPrintable(panel->status()->text()));
        QCOMPARE(QApplication::focusWidget(), panel->downloadButton());
        qunsetenv("HF_ENDPOINT");
    }

    // A download started in Settings › Models is the app's: closing the dialog lets it go on, the
    // status bar says how far it is (a click asks for the Models tab), and the next dialog shows it
    // with its progress, Pause and Cancel until it ends.
    void aDownloadOutlivesTheDialog()
    {
        FakeHub hub;
        SettingsProfile profile;
        serveTinyRepository(hub, profile);
        if (QTest::currentTestFailed())
            return;
        LocalModelHost host(profile.settings());
        ModelDownloads downloads(profile.settings());
        QStatusBar bar;
        auto *status = new LocalModelStatus(&host, &downloads);
        bar.addWidget(status, 1);
        bar.show();
        // A message of the status bar's own: the download's word waits under it (the two texts were
        // drawn over each other) and shows when the message goes.
        bar.showMessage(QStringLiteral("Testing the model…"));
        QVERIFY(!status->downloadButton()->isVisibleTo(status));
        {
            SettingsDialog dialog(profile.settings(), nullptr, nullptr, &downloads);
            ModelDownloadPanel *panel = dialog.modelsPage()->downloads();
            panel->findField()->setText(QStringLiteral("test/Tiny-GGUF"));
            QTest::keyClick(panel->findField(), Qt::Key_Return);
            QTRY_VERIFY(panel->status()->text().contains(QLatin1String("choose a quantization")));
            QTest::mouseClick(panel->downloadButton(), Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(panel->progress()->value() > 0 && panel->progress()->value() < 1000, 10000);
        }
        ModelDownload *download = downloads.current();
        QVERIFY(download);
        QVERIFY2(download->state() == ModelDownload::State::Downloading, qPrintable(download->message()));
        QVERIFY(status->downloadButton()->isVisibleTo(status));
        QVERIFY2(status->downloadButton()->text().startsWith(QStringLiteral("Downloading Tiny… ")) &&
                     status->downloadButton()->text().contains(QRegularExpression(QStringLiteral("\\d%$"))),
                 qPrintable(status->downloadButton()->text()));
        QVERIFY(!status->isVisible());
        bar.clearMessage();
        QTRY_VERIFY(status->isVisible());
        QSignalSpy asked(status, &LocalModelStatus::downloadsRequested);
        QTest::mouseClick(status->downloadButton(), Qt::LeftButton);
        QCOMPARE(asked.size(), 1);

        SettingsDialog again(profile.settings(), nullptr, nullptr, &downloads);
        ModelDownloadPanel *panel = again.modelsPage()->downloads();
        QCOMPARE(panel->currentDownload(), download);
        QVERIFY(panel->progress()->isVisibleTo(panel));
        QVERIFY(panel->progress()->value() > 0);
        QVERIFY(panel->pauseButton()->isVisibleTo(panel) && panel->pauseButton()->isEnabled());
        QCOMPARE(panel->pauseButton()->text(), QStringLiteral("Paus&e"));
        QVERIFY(panel->cancelButton()->isEnabled());
        // Paused, it says how much is here, and no speed or time left stays from before.
        QTest::mouseClick(panel->pauseButton(), Qt::LeftButton);
        QTRY_COMPARE(download->state(), ModelDownload::State::Paused);
        QVERIFY2(panel->status()->text().startsWith(QLatin1String("Paused at ")), qPrintable(panel->status()->text()));
        QVERIFY2(panel->rateLabel()->text().isEmpty(), qPrintable(panel->rateLabel()->text()));
        QTest::mouseClick(panel->pauseButton(), Qt::LeftButton);
        QSignalSpy downloaded(panel, &ModelDownloadPanel::downloaded);
        QVERIFY(downloaded.wait(30000));
        QCOMPARE(FakeHub::sha256Of(downloaded.constFirst().constFirst().toString()), FakeHub::sha256Of(m_tiny));
        QCOMPARE(panel->progress()->value(), panel->progress()->maximum());
        QTRY_VERIFY(!status->downloadButton()->isVisibleTo(status));
        QVERIFY(downloads.unfinished().isEmpty());
        qunsetenv("HF_ENDPOINT");
    }

    // Quitting with a download under way keeps what came; the next start says so in the status
    // bar, and Resume in Settings › Models goes on from there (a Range request) to the whole model.
    void aDownloadStoppedByQuittingResumesOnRequest()
    {
        FakeHub hub;
        SettingsProfile profile;
        serveTinyRepository(hub, profile);
        if (QTest::currentTestFailed())
            return;
        {
            auto *quitting = new ModelDownloads(profile.settings());
            bool done = false;
            QCoro::connect(quitting->download(QStringLiteral("test/Tiny-GGUF"), QStringLiteral("Q4_K_M"), QString()),
                           quitting, [&done](const Result<ModelDownload *> &started) {
                               QVERIFY2(started, qPrintable(started.error()));
                               done = true;
                           });
            QTRY_VERIFY(done);
            QTRY_VERIFY_WITH_TIMEOUT(quitting->current()->bytesDone() > 0, 10000);
            delete quitting; // the app quits in the middle
        }
        LocalModelHost host(profile.settings());
        ModelDownloads downloads(profile.settings());
        QCOMPARE(downloads.unfinished(), QStringLiteral("test/Tiny-GGUF:Q4_K_M"));
        LocalModelStatus status(&host, &downloads);
        QVERIFY2(status.downloadButton()->text().contains(QLatin1String("stopped when Sandpiper quit")),
                 qPrintable(status.downloadButton()->text()));
        ModelSettingsPage page(profile.settings(), &downloads);
        ModelDownloadPanel *panel = page.downloads();
        QVERIFY(panel->pauseButton()->isVisibleTo(panel));
        QCOMPARE(panel->pauseButton()->text(), QStringLiteral("Resum&e"));
        // What came so far, not a bar at 0 %: the whole size is known once the hub is asked again.
        QVERIFY(!panel->progress()->isVisibleTo(panel));
        QVERIFY(downloads.unfinishedBytes() > 0);
        QVERIFY2(panel->rateLabel()->text().endsWith(QLatin1String(" downloaded so far")),
                 qPrintable(panel->rateLabel()->text()));
        QSignalSpy downloaded(panel, &ModelDownloadPanel::downloaded);
        QTest::mouseClick(panel->pauseButton(), Qt::LeftButton);
        QTRY_VERIFY(panel->progress()->isVisibleTo(panel));
        QVERIFY(downloaded.wait(30000));
        QCOMPARE(FakeHub::sha256Of(downloaded.constFirst().constFirst().toString()), FakeHub::sha256Of(m_tiny));
        QVERIFY(downloads.unfinished().isEmpty());
        QVERIFY2(hub.files().requests().constLast().headers.value("range").startsWith("bytes="),
                 hub.files().requests().constLast().headers.value("range").constData());
        QVERIFY(hub.files().requests().constLast().headers.value("range") != "bytes=0-");
        QTRY_VERIFY(status.downloadButton()->text().isEmpty());
        qunsetenv("HF_ENDPOINT");
    }

    // With no model here and a llama-server to run one, the welcome page offers the model that
    // suits this computer: one click downloads it (progress on the page) and makes it the provider.
    // A download canceled on the page leaves the offer as it was, to start anew (it stayed
    // disabled, the bar frozen).
    void theWelcomePageDownloadsAndRuns()
    {
        const RecommendedModel best = RecommendedModels::best(RunnerPlan::totalMemory());
        FakeHub hub;
        SettingsProfile profile;
        const QString file = serveRecommended(best, hub, profile);
        WelcomePage page(profile.settings());
        startWelcome(page);
        if (QTest::currentTestFailed())
            return;
        QSignalSpy chosen(&page, &WelcomePage::providerChosen);
        QCOMPARE(page.useButtons().size(), 1);
        QPushButton *offer = page.useButtons().constFirst();
        QVERIFY2(offer->text().startsWith(QLatin1String("&Download ")), qPrintable(offer->text()));
        const QString offered = offer->text();
        // By keyboard: the focus goes from the offer to Cancel the download and back.
        page.show();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        offer->setFocus();
        QTest::keyClick(offer, Qt::Key_Space);
        // The drop half way makes the download wait a few seconds before it goes on: time to cancel.
        QTRY_VERIFY_WITH_TIMEOUT(page.cancelDownloadButton()->isVisibleTo(&page), 10000);
        QVERIFY(page.downloadProgress()->isVisibleTo(&page));
        QVERIFY(!offer->isEnabled());
        QCOMPARE(QApplication::focusWidget(), page.cancelDownloadButton());
        QCOMPARE(QKeySequence::mnemonic(page.cancelDownloadButton()->text()), QKeySequence(Qt::ALT | Qt::Key_C));
        QTest::keyClick(page.cancelDownloadButton(), Qt::Key_Space);
        QTRY_VERIFY(offer->isEnabled());
        QCOMPARE(offer->text(), offered);
        QCOMPARE(QApplication::focusWidget(), offer);
        QVERIFY(!page.cancelDownloadButton()->isVisibleTo(&page));
        QVERIFY(!page.downloadProgress()->isVisibleTo(&page));
        QVERIFY(chosen.isEmpty());

        QTest::mouseClick(offer, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(page.downloadProgress()->isVisibleTo(&page), 10000);
        QVERIFY(chosen.wait(30000));
        QCOMPARE(profile.settings()->string(QStringLiteral("provider")), QStringLiteral("local"));
        QCOMPARE(profile.settings()->string(QStringLiteral("providers/local/model")),
                 QStringLiteral("model-%1").arg(best.quantization));
        QVERIFY(QFile::exists(profile.settings()->localModelsFolder() + QLatin1Char('/') + best.repository +
                              QLatin1Char('/') + file));
        qunsetenv("HF_ENDPOINT");
    }

    // The models here on the welcome page: their sizes in the units of the rest of the app (SI:
    // kB, MB), and a button with a mnemonic each.
    void theWelcomePageOffersTheModelsHere()
    {
        SettingsProfile profile;
        fillShelf(profile);
        QVERIFY(profile.settings()->addOverride(QStringLiteral("local/server=/usr/bin/llama-server")).isEmpty());
        WelcomePage page(profile.settings());
        page.setCandidates({});
        QSignalSpy scanned(&page, &WelcomePage::scanFinished);
        page.start(QStringLiteral("No provider is set up."));
        QVERIFY(!scanned.isEmpty() || scanned.wait(10000));
        QCOMPARE(page.useButtons().size(), 1);
        QPushButton *run = page.useButtons().constFirst();
        QCOMPARE(run->text(), QStringLiteral("&Run tiny here"));
        const QString size = QLocale().formattedDataSize(QFileInfo(m_tiny).size(), 1, QLocale::DataSizeSIFormat);
        QVERIFY2(size.endsWith(QLatin1String(" kB")), qPrintable(size));
        bool shown = false;
        for (const QLabel *label : page.findChildren<QLabel *>())
            shown = shown || label->text().startsWith(size + QStringLiteral(" · "));
        QVERIFY2(shown, qPrintable(size));
        QCOMPARE(QKeySequence::mnemonic(run->text()), QKeySequence(Qt::ALT | Qt::Key_R));
    }

    // The Models tab with a download under way, and the welcome page's offer, in each theme.
    void screenshots_data() { addThemeRows(); }
    void screenshots()
    {
        QFETCH(QString, theme);
        FakeHub hub;
        QVERIFY(hub.listen());
        hub.addRepository(QStringLiteral("Qwen/Qwen2.5-3B-Instruct-GGUF"));
        // Dropped half way, the download waits a moment before it goes on: the picture's moment.
        hub.addFile(QStringLiteral("Qwen/Qwen2.5-3B-Instruct-GGUF"),
                    {QStringLiteral("qwen2.5-3b-instruct-q4_k_m.gguf"), m_tiny, {}, 1, 200000});
        qputenv("HF_ENDPOINT", hub.endpoint().toString().toUtf8());
        qputenv("HF_TOKEN", "");
        SettingsProfile profile;
        fillShelf(profile);
        applyTheme(*profile.settings(), theme);
        QVERIFY(profile.settings()->addOverride(QStringLiteral("local/hub_hosts=") + hub.fileHost()).isEmpty());
        {
            SettingsDialog dialog(profile.settings());
            dialog.resize(780, 760);
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            dialog.showPage(dialog.modelsPage());
            ModelDownloadPanel *panel = dialog.modelsPage()->downloads();
            panel->findField()->setText(QStringLiteral("Qwen/Qwen2.5-3B-Instruct-GGUF"));
            QTest::keyClick(panel->findField(), Qt::Key_Return);
            QTRY_VERIFY(panel->status()->text().contains(QLatin1String("choose a quantization")));
            QTest::mouseClick(panel->downloadButton(), Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(panel->progress()->value() > 0 && panel->progress()->value() < 1000, 10000);
            saveScreenshot(&dialog, QStringLiteral("models-%1.png").arg(theme));
        }
        QDir(profile.settings()->localModelsFolder()).removeRecursively();
        QVERIFY(profile.settings()->addOverride(QStringLiteral("local/server=/usr/bin/llama-server")).isEmpty());
        WelcomePage page(profile.settings());
        page.setCandidates({});
        page.resize(800, 600);
        page.show();
        QSignalSpy scanned(&page, &WelcomePage::scanFinished);
        page.start(QStringLiteral("No provider is set up yet."));
        QVERIFY(!scanned.isEmpty() || scanned.wait(10000));
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        // The offer is found off the GUI thread: its row is laid out after the look ends.
        QTRY_VERIFY(!page.useButtons().isEmpty() && page.useButtons().constFirst()->isVisible() &&
                    page.useButtons().constFirst()->mapTo(&page, QPoint()).y() > 0);
        QVERIFY(page.useButtons().constFirst()->text().startsWith(QLatin1String("&Download ")));
        saveScreenshot(&page, QStringLiteral("welcome-local-%1.png").arg(theme));
        qunsetenv("HF_ENDPOINT");
    }

    // Without a llama-server of the computer's own, "Get llama-server for Docker" is there, reached
    // by its mnemonic; pressed, it shows what it does and how it ended: here no registry answers and
    // mmdebstrap is missing, so the page says what to install.
    void getsLlamaServerForDockerOrSaysWhatToDo()
    {
        SettingsProfile profile;
        QVERIFY(profile.settings()
                    ->addOverride(QStringLiteral("local/runner_image=127.0.0.1:1/sandpiper-test/llama.cpp:server"))
                    .isEmpty());
        QTemporaryDir emptyBin; // no llama-server and no mmdebstrap on PATH (docker is found where it usually is)
        const QByteArray path = qgetenv("PATH");
        const auto restore = qScopeGuard([&] { qputenv("PATH", path); });
        qputenv("PATH", emptyBin.path().toLocal8Bit());
        ModelSettingsPage page(profile.settings());
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QPushButton *get = page.getRunnerButton();
        QVERIFY(get->isVisible());
        QCOMPARE(get->accessibleName(), QStringLiteral("Get llama-server for Docker"));
        QCOMPARE(QKeySequence::mnemonic(get->text()), QKeySequence(Qt::ALT | Qt::Key_D));
        QVERIFY(get->focusPolicy() & Qt::TabFocus);
        get->setFocus();
        QTest::keyClick(get, Qt::Key_Space);
        QVERIFY(!get->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(get->isEnabled(), 20000);
        const QString said = page.runnerResult()->text();
        QVERIFY2(said.startsWith(QLatin1String("The registry 127.0.0.1:1 cannot be reached from this computer.")),
                 qPrintable(said));
        QVERIFY2(said.contains(QLatin1String("install mmdebstrap")), qPrintable(said));
        QVERIFY(page.runnerResult()->isVisible());
        QVERIFY(page.runnerLog()->isVisible());
        QVERIFY2(page.runnerLog()->toPlainText().contains(QLatin1String("docker pull")) ||
                     page.runnerLog()->toPlainText().contains(QLatin1String("127.0.0.1:1")),
                 qPrintable(page.runnerLog()->toPlainText()));
    }

    // "Use" in the dialog: Providers shows "This computer" with that model, and OK keeps it.
    void useHandsTheModelToProviders()
    {
        SettingsProfile profile;
        fillShelf(profile);
        SettingsDialog dialog(profile.settings());
        ModelSettingsPage *page = dialog.modelsPage();
        dialog.showPage(page);
        page->modelList()->setCurrentItem(row(page->modelList(), QStringLiteral("tiny")));
        // Enter in the hub's field searches; it does not also press OK (the walk's crash: the
        // dialog closed under the search).
        dialog.show();
        page->downloads()->findField()->setText(QStringLiteral("tiny"));
        page->downloads()->findField()->setFocus();
        QTest::keyClick(page->downloads()->findField(), Qt::Key_Return);
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QTest::mouseClick(page->useButton(), Qt::LeftButton);
        QCOMPARE(dialog.tabs()->currentIndex(), 0);
        QCOMPARE(dialog.presetPicker()->currentData().toString(), QStringLiteral("local"));
        QCOMPARE(dialog.modelPicker()->currentText(), QStringLiteral("tiny"));
        // The address and key rows mean nothing for it.
        QVERIFY(!dialog.baseUrlField()->isVisibleTo(&dialog));
        QVERIFY(!dialog.apiKeyField()->isVisibleTo(&dialog));
        dialog.accept();
        const auto saved = profile.reopened();
        QCOMPARE(saved->string(QStringLiteral("provider")), QStringLiteral("local"));
        QCOMPARE(saved->string(QStringLiteral("providers/local/model")), QStringLiteral("tiny"));
    }
};

QTEST_MAIN(TestModelSettingsPage)
#include "tst_modelsettingspage.moc"
