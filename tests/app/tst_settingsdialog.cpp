// The settings dialog and the first-run welcome page, driven like a user would, against fake
// model servers; with SANDPIPER_SCREENSHOT_DIR set, also saves their screenshots.
#include "dockertest.h"
#include "fakehub.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "screenshot.h"
#include "settingsoverrides.h"
#include "widgetlookup.h"

#include <composer.h>
#include <localmodelstatus.h>
#include <mainwindow.h>
#include <session/agentsettings.h>
#include <session/modeldownloads.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>
#include <settingsdialog.h>
#include <storage/conversationstore.h>
#include <welcomepage.h>

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

quint16 closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost);
    return server.serverPort();
}

void checkAccessibleNames(QWidget *root)
{
    for (QWidget *widget : root->findChildren<QWidget *>()) {
        // Popups (a combo box's list) are windows of their own, named by their combo box.
        if (!(widget->focusPolicy() & Qt::TabFocus) || !widget->isEnabled() || widget->window() != root->window())
            continue;
        // Spin boxes and editable combos own their line edit; the outer control carries the name.
        QWidget *parent = widget->parentWidget();
        if (parent && (qobject_cast<QAbstractSpinBox *>(parent) || qobject_cast<QComboBox *>(parent)))
            continue;
        QVERIFY2(!widget->accessibleName().isEmpty() || (qobject_cast<QAbstractButton *>(widget) &&
                                                         !static_cast<QAbstractButton *>(widget)->text().isEmpty()),
                 qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(widget->metaObject()->className()),
                                                        widget->objectName())));
    }
}

} // namespace

class TestSettingsDialog : public QObject
{
    Q_OBJECT

    std::unique_ptr<FakeLlmServer> m_server;
    std::unique_ptr<QTemporaryDir> m_profile;
    std::unique_ptr<Settings> m_settings;

private Q_SLOTS:
    void init()
    {
        qputenv("SANDPIPER_API_KEY", "sk-test");
        qunsetenv("OPENAI_API_KEY");
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        m_profile = std::make_unique<QTemporaryDir>();
        m_settings = std::make_unique<Settings>(m_profile->path());
        // No Docker needed here: the window skips the sandbox check.
        QCOMPARE(m_settings->addOverride(QStringLiteral("sandbox/enabled=false")), QString());
    }

    void cleanup()
    {
        m_settings.reset();
        m_server.reset();
    }

    void changedFieldsArePersisted()
    {
        {
            SettingsDialog dialog(m_settings.get());
            dialog.show();
            dialog.presetPicker()->setCurrentIndex(dialog.presetPicker()->findData(QStringLiteral("custom")));
            dialog.baseUrlField()->setText(QStringLiteral("localhost:9999/v1/chat/completions/"));
            dialog.modelPicker()->setEditText(QStringLiteral("my-model"));
            dialog.headersField()->setPlainText(QStringLiteral("X-Title: Sandpiper"));
            findNamed<QSpinBox>(&dialog, QStringLiteral("Maximum tool rounds per answer"))->setValue(7);
            auto *python = findNamed<QComboBox>(&dialog, QStringLiteral("Approval for execute_python_code"));
            python->setCurrentIndex(python->findData(QStringLiteral("never")));
            auto *theme = findNamed<QComboBox>(&dialog, QStringLiteral("Theme"));
            // Light, which also keeps the screenshots below in the documentation's look.
            theme->setCurrentIndex(theme->findData(QStringLiteral("light")));
            auto *language = findNamed<QComboBox>(&dialog, QStringLiteral("Language"));
            language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
            findNamed<QCheckBox>(&dialog, QStringLiteral("Network access by default"))->setChecked(true);
            findNamed<QLineEdit>(&dialog, QStringLiteral("Sandbox image"))->setText(QStringLiteral("my/image:1"));
            auto *diskLimit =
                findNamed<QSpinBox>(&dialog, QStringLiteral("Disk space for a conversation's files in MiB"));
            QCOMPARE(diskLimit->value(), 1024);
            diskLimit->setValue(2048);
            auto *figures = findNamed<QSpinBox>(&dialog, QStringLiteral("Figures kept per run"));
            QCOMPARE(figures->value(), 20);
            figures->setValue(5);
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
        }
        Settings reopened(m_profile->path());
        QCOMPARE(reopened.string(QStringLiteral("provider")), QStringLiteral("custom"));
        QCOMPARE(reopened.string(QStringLiteral("providers/custom/base_url")),
                 QStringLiteral("http://localhost:9999/v1"));
        QCOMPARE(reopened.string(QStringLiteral("providers/custom/model")), QStringLiteral("my-model"));
        QCOMPARE(reopened.provider().extraHeaders.size(), 1);
        QCOMPARE(reopened.integer(QStringLiteral("agent/max_tool_rounds")), 7);
        QCOMPARE(reopened.string(QStringLiteral("approval/execute_python_code")), QStringLiteral("never"));
        QCOMPARE(reopened.string(QStringLiteral("appearance/theme")), QStringLiteral("light"));
        QCOMPARE(reopened.string(QStringLiteral("appearance/language")), QStringLiteral("zh_CN"));
        QCOMPARE(reopened.boolean(QStringLiteral("sandbox/network")), true);
        QCOMPARE(reopened.string(QStringLiteral("sandbox/image")), QStringLiteral("my/image:1"));
        const SandboxConfig sandbox = reopened.sandbox(QStringLiteral("1"), QStringLiteral("folder"));
        QCOMPARE(sandbox.diskLimitBytes, qint64(2048) << 20);
        QCOMPARE(sandbox.maxFigures, 5);
        // An untouched prompt stays empty, so that it follows the default.
        QCOMPARE(reopened.string(QStringLiteral("agent/system_prompt")), QString());
    }

    void localModelSwitchesAreSavedPerProvider()
    {
        {
            SettingsDialog dialog(m_settings.get());
            dialog.presetPicker()->setCurrentIndex(dialog.presetPicker()->findData(QStringLiteral("llamacpp")));
            dialog.modelPicker()->setEditText(QStringLiteral("qwen3-8b"));
            auto *window = findNamed<QSpinBox>(&dialog, QStringLiteral("Context window of this model"));
            QCOMPARE(window->value(), 0); // as the server says
            window->setValue(16384);
            auto *textCalls = findNamed<QCheckBox>(&dialog, QStringLiteral("Run tool calls written as text"));
            QVERIFY(textCalls->isChecked());
            textCalls->setChecked(false);
            auto *reasoning = findNamed<QCheckBox>(&dialog, QStringLiteral("Send reasoning back between tool rounds"));
            QVERIFY(reasoning->isChecked()); // the llama.cpp preset's choice
            auto *images = findNamed<QComboBox>(&dialog, QStringLiteral("Whether this model takes images"));
            QCOMPARE(images->currentData().toString(), QString()); // as the server says
            images->setCurrentIndex(images->findData(QStringLiteral("yes")));
            auto *side =
                findNamed<QSpinBox>(&dialog, QStringLiteral("Longest side of images sent to the model, in pixels"));
            QCOMPARE(side->value(), 1568);
            side->setValue(1024);
            dialog.accept();
        }
        Settings reopened(m_profile->path());
        const ProviderConfig provider = reopened.provider();
        QCOMPARE(provider.contextWindows.value(QStringLiteral("qwen3-8b")), 16384);
        QCOMPARE(provider.imageModels.value(QStringLiteral("qwen3-8b")), true);
        QCOMPARE(AgentSettings::read(reopened).imageMaxSide, 1024);
        QVERIFY(!provider.recoverTextToolCalls);
        QVERIFY(provider.sendReasoningBack);
        // Left as the preset has it, the switch follows the preset.
        QCOMPARE(reopened.string(QStringLiteral("providers/llamacpp/reasoning_back")), QString());

        SettingsDialog again(&reopened);
        QCOMPARE(findNamed<QSpinBox>(&again, QStringLiteral("Context window of this model"))->value(), 16384);
        QCOMPARE(findNamed<QComboBox>(&again, QStringLiteral("Whether this model takes images"))->currentData(),
                 QStringLiteral("yes"));
        again.modelPicker()->setEditText(QStringLiteral("another-model"));
        QCOMPARE(findNamed<QSpinBox>(&again, QStringLiteral("Context window of this model"))->value(), 0);
        QCOMPARE(findNamed<QComboBox>(&again, QStringLiteral("Whether this model takes images"))->currentData(),
                 QString());
    }

    void cancelDiscards()
    {
        SettingsDialog dialog(m_settings.get());
        findNamed<QSpinBox>(&dialog, QStringLiteral("Maximum tool rounds per answer"))->setValue(3);
        dialog.reject();
        QCOMPARE(m_settings->integer(QStringLiteral("agent/max_tool_rounds")), 20);
    }

    void resetFillsInTheDefaultPrompt()
    {
        SettingsDialog dialog(m_settings.get());
        auto *prompt = findNamed<QPlainTextEdit>(&dialog, QStringLiteral("System prompt"));
        prompt->setPlainText(QStringLiteral("Be terse."));
        findNamed<QPushButton>(&dialog, QStringLiteral("Reset the system prompt to the default"))->click();
        QCOMPARE(prompt->toPlainText(), m_settings->defaultSystemPrompt());
        QVERIFY(!prompt->toPlainText().isEmpty());
    }

    void theDefaultPromptIsShownAndStaysTheDefault()
    {
        {
            SettingsDialog dialog(m_settings.get());
            auto *prompt = findNamed<QPlainTextEdit>(&dialog, QStringLiteral("System prompt"));
            QVERIFY(!m_settings->defaultSystemPrompt().isEmpty());
            QCOMPARE(prompt->toPlainText(), m_settings->defaultSystemPrompt());
            dialog.accept();
        }
        // Saved untouched, it follows the defaults of later versions.
        QCOMPARE(m_settings->string(QStringLiteral("agent/system_prompt")), QString());
        m_settings->setValue(QStringLiteral("agent/system_prompt"), QStringLiteral("Be terse."));
        SettingsDialog dialog(m_settings.get());
        QCOMPARE(findNamed<QPlainTextEdit>(&dialog, QStringLiteral("System prompt"))->toPlainText(),
                 QStringLiteral("Be terse."));
    }

    void anInvalidBaseUrlIsRefused()
    {
        SettingsDialog dialog(m_settings.get());
        dialog.show();
        dialog.presetPicker()->setCurrentIndex(dialog.presetPicker()->findData(QStringLiteral("custom")));
        dialog.tabs()->setCurrentIndex(2);
        dialog.baseUrlField()->setText(QStringLiteral("ftp://example.com/v1"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(dialog.isVisible());
        QVERIFY(dialog.baseUrlError()->isVisible());
        QVERIFY2(dialog.baseUrlError()->text().contains(QLatin1String("ftp://example.com/v1")),
                 qPrintable(dialog.baseUrlError()->text()));
        QCOMPARE(dialog.tabs()->currentIndex(), 0);
        QCOMPARE(m_settings->string(QStringLiteral("provider")), QStringLiteral("openai"));
    }

    void testConnectionFillsTheModels()
    {
        m_server->setModels({QStringLiteral("alpha"), QStringLiteral("beta"), QStringLiteral("gamma")});
        m_server->setRequiredApiKey(QStringLiteral("sk-test"));
        SettingsDialog dialog(m_settings.get());
        dialog.show();
        dialog.presetPicker()->setCurrentIndex(dialog.presetPicker()->findData(QStringLiteral("custom")));
        dialog.baseUrlField()->setText(m_server->baseUrl().toString());
        QSignalSpy tested(&dialog, &SettingsDialog::connectionTested);
        dialog.testButton()->click();
        QVERIFY(tested.wait(10000));
        QCOMPARE(tested.first().first().toBool(), true);
        QVERIFY2(dialog.testResult()->text().contains(QLatin1String("3 models")),
                 qPrintable(dialog.testResult()->text()));
        QCOMPARE(dialog.modelPicker()->count(), 3);
        QCOMPARE(dialog.modelPicker()->itemText(0), QStringLiteral("alpha"));

        // A wrong key says so.
        dialog.apiKeyField()->setText(QStringLiteral("sk-wrong"));
        dialog.testButton()->click();
        QVERIFY(tested.wait(10000));
        QCOMPARE(tested.last().first().toBool(), false);
        QVERIFY2(dialog.testResult()->text().contains(QLatin1String("key")), qPrintable(dialog.testResult()->text()));
        dialog.apiKeyField()->clear();
        dialog.testButton()->click();
        QVERIFY(tested.wait(10000));
        dialog.resize(640, 560);
        saveScreenshot(&dialog, QStringLiteral("settings-dialog.png"));
    }

    void everyControlIsNamed()
    {
        SettingsDialog dialog(m_settings.get());
        dialog.show();
        for (int tab = 0; tab < dialog.tabs()->count(); ++tab) {
            dialog.tabs()->setCurrentIndex(tab);
            checkAccessibleNames(dialog.tabs()->currentWidget());
        }
        checkAccessibleNames(&dialog);
    }

    // A label with a mnemonic takes the keyboard to its field: without a buddy it would show the
    // "&" instead.
    void everyMnemonicLeadsToAField()
    {
        SettingsDialog dialog(m_settings.get());
        for (QLabel *label : dialog.findChildren<QLabel *>()) {
            const QString text = QString(label->text()).remove(QStringLiteral("&&"));
            if (label->textFormat() != Qt::RichText && text.contains(QLatin1Char('&')))
                QVERIFY2(label->buddy(), qPrintable(label->text()));
        }
    }

    // The sandbox tab says which engine the docker CLI talks to, whether it is local, and how fast
    // it answers; against the remote engine of scripts/test too, when there is one.
    void theEngineRowSaysWhichEngineAndWhere()
    {
        SANDPIPER_REQUIRE_DOCKER();
        SettingsDialog dialog(m_settings.get());
        dialog.show();
        auto *image = findNamed<QLineEdit>(&dialog, QStringLiteral("Sandbox image"));
        QVERIFY(image);
        image->setText(Sandpiper::Test::sandboxImage());
        auto *check = findNamed<QPushButton>(&dialog, QStringLiteral("Check the Docker engine"));
        auto *status = findNamed<QLabel>(&dialog, QStringLiteral("Docker engine status"));
        QVERIFY(check && status);
        dialog.showPage(check->parentWidget()); // where the person who clicks it looks
        check->click();
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QLatin1String("trivial execution")), 60000);
        QVERIFY2(status->text().startsWith(QLatin1String("the default engine: on this machine, answers in ")),
                 qPrintable(status->text()));
        // All of it shows, however many lines it wraps to.
        QTRY_VERIFY(status->height() >= status->heightForWidth(status->width()));
        const QString remote = qEnvironmentVariable("SANDPIPER_REMOTE_DOCKER_HOST");
        if (remote.isEmpty())
            return;
        qputenv("DOCKER_HOST", remote.toUtf8());
        check->click();
        QTRY_VERIFY_WITH_TIMEOUT(!check->isEnabled(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(check->isEnabled(), 60000);
        qunsetenv("DOCKER_HOST");
        QVERIFY2(status->text().startsWith(remote + QStringLiteral(": remote, answers in ")),
                 qPrintable(status->text()));
        // With what a run pays there, on the kernel's channel.
        QVERIFY2(status->text().contains(QLatin1String("ms on its kernel's channel")), qPrintable(status->text()));
        // Chosen in the dialog instead: checked before it is saved.
        auto *engine = findNamed<QComboBox>(&dialog, QStringLiteral("Docker engine"));
        QVERIFY(engine);
        engine->setEditText(remote);
        check->click();
        QTRY_VERIFY_WITH_TIMEOUT(!check->isEnabled(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(check->isEnabled(), 60000);
        QVERIFY2(status->text().startsWith(remote + QStringLiteral(": remote, answers in ")),
                 qPrintable(status->text()));
    }

    // The engine: the docker command's own choice, one of its contexts, or an address typed in;
    // saved as the setting and in force for new sandboxes once the dialog is accepted.
    void theEngineIsChosenHere()
    {
        SettingsDialog dialog(m_settings.get());
        dialog.show();
        auto *engine = findNamed<QComboBox>(&dialog, QStringLiteral("Docker engine"));
        QVERIFY(engine);
        QCOMPARE(engine->currentIndex(), 0);
        QCOMPARE(engine->currentData().toString(), QString());
        // The docker command's contexts come in a moment later (it always has "default").
        QTRY_VERIFY_WITH_TIMEOUT(engine->findData(QStringLiteral("default")) > 0, 10000);
        QCOMPARE(engine->currentIndex(), 0);
        dialog.showPage(engine->parentWidget());
        dialog.resize(640, 640);
        saveScreenshot(&dialog, QStringLiteral("settings-sandbox.png"));

        engine->setEditText(QStringLiteral("not a context!"));
        dialog.accept();
        QVERIFY(dialog.isVisible());
        const QList<QLabel *> labels = engine->parentWidget()->findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.cbegin(), labels.cend(), [](QLabel *label) {
            return label->isVisible() && label->text().contains(QStringLiteral("“not a context!”"));
        }));
        QCOMPARE(m_settings->string(QStringLiteral("sandbox/engine")), QString());
        QCOMPARE(dialog.currentPage(), engine->parentWidget()); // shown where the field is

        engine->setEditText(QStringLiteral("ssh://me@box.example"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(m_settings->string(QStringLiteral("sandbox/engine")), QStringLiteral("ssh://me@box.example"));
        QCOMPARE(m_settings->engine().host, QStringLiteral("ssh://me@box.example"));

        SettingsDialog again(m_settings.get());
        auto *shown = findNamed<QComboBox>(&again, QStringLiteral("Docker engine"));
        QCOMPARE(shown->currentText(), QStringLiteral("ssh://me@box.example"));
        shown->setCurrentIndex(0);
        again.accept();
        QCOMPARE(m_settings->string(QStringLiteral("sandbox/engine")), QString());
        QVERIFY(m_settings->engine().isEmpty());
    }

    void theShortcutOpensTheDialog()
    {
        ConversationStore store(m_settings->dataDirectory());
        QVERIFY(store.open());
        MainWindow window(m_settings.get(), &store);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        bool opened = false;
        QTimer::singleShot(0, &window, [&] {
            auto *dialog = qobject_cast<SettingsDialog *>(QApplication::activeModalWidget());
            opened = dialog != nullptr;
            if (dialog)
                dialog->reject();
        });
        QTest::keyClick(&window, Qt::Key_Comma, Qt::ControlModifier);
        QTRY_VERIFY(opened);
    }

    // A key typed in Settings is used for the rest of the run, also when the keychain cannot keep
    // it (there is none here): the dialog says so, and the next message carries the key.
    void aKeyTypedInTheDialogIsUsed()
    {
        qunsetenv("SANDPIPER_API_KEY");
        m_server->setRequiredApiKey(QStringLiteral("sk-typed"));
        m_server->enqueue(FS::openAiText(QStringLiteral("Hello with a key.")));
        QCOMPARE(Sandpiper::Test::applySettings(*m_settings, m_server->providerSettings(QStringLiteral("model-a"))),
                 QString());
        ConversationStore store(m_settings->dataDirectory());
        QVERIFY(store.open());
        MainWindow window(m_settings.get(), &store);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        bool typed = false;
        QString note; // what the dialog says when the keychain cannot keep the key
        QTimer::singleShot(0, &window, [&] {
            auto *dialog = qobject_cast<SettingsDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            dialog->apiKeyField()->setText(QStringLiteral("sk-typed"));
            dialog->accept();
            // Without a keychain the dialog stays to say so; OK again closes it.
            QTRY_VERIFY(dialog->isEnabled());
            if (dialog->isVisible()) {
                for (QLabel *label : dialog->findChildren<QLabel *>())
                    if (label->isVisible() && label->text().contains(QLatin1String("keychain")))
                        note = label->text();
                dialog->accept();
            }
            typed = true;
        });
        QTest::keyClick(&window, Qt::Key_Comma, Qt::ControlModifier);
        QTRY_VERIFY(typed);
        if (!note.isEmpty())
            QVERIFY2(!note.contains(QLatin1String("Unknown error")), qPrintable(note));
        QTRY_COMPARE(window.sessions()->apiKey(QStringLiteral("custom")), QStringLiteral("sk-typed"));
        window.send(QStringLiteral("hello"));
        QTRY_VERIFY_WITH_TIMEOUT(!m_server->chatRequests().isEmpty(), 10000);
        QCOMPARE(m_server->chatRequests().constLast().headers.value("authorization"), QByteArray("Bearer sk-typed"));
    }

    // A model download under way shows in the status bar; closing the window in the middle of it
    // crashes nothing (the sanitizers watch), and the settings name it for the next start.
    void closingTheWindowMidDownload()
    {
        QTemporaryDir files;
        QFile model(files.filePath(QStringLiteral("model-Q4_K_M.gguf")));
        QVERIFY(model.open(QIODevice::WriteOnly));
        model.write(QByteArray(1 << 20, 'x'));
        model.close();
        FakeHub hub;
        QVERIFY(hub.listen());
        hub.addRepository(QStringLiteral("test/Big-GGUF"));
        // Dropped early, the download waits a second before it goes on: the window closes meanwhile.
        hub.addFile(QStringLiteral("test/Big-GGUF"),
                    {QStringLiteral("model-Q4_K_M.gguf"), model.fileName(), {}, 1, 100000});
        qputenv("HF_ENDPOINT", hub.endpoint().toString().toUtf8());
        const auto endpoint = qScopeGuard([] { qunsetenv("HF_ENDPOINT"); });
        m_settings->setValue(QStringLiteral("local/hub_hosts"), hub.fileHost());
        ConversationStore store(m_settings->dataDirectory());
        QVERIFY(store.open());
        {
            MainWindow window(m_settings.get(), &store);
            window.show();
            ModelDownloads *downloads = window.sessions()->modelDownloads();
            bool started = false;
            QCoro::connect(downloads->download(QStringLiteral("test/Big-GGUF"), QStringLiteral("Q4_K_M"), QString()),
                           &window, [&started](const Result<ModelDownload *> &download) {
                               QVERIFY2(download, qPrintable(download.error()));
                               started = true;
                           });
            QTRY_VERIFY(started);
            QTRY_VERIFY_WITH_TIMEOUT(downloads->current()->bytesDone() > 0, 10000);
            auto *status = window.findChild<LocalModelStatus *>();
            QVERIFY(status);
            QTRY_VERIFY(status->downloadButton()->text().startsWith(QStringLiteral("Downloading Big… ")));
        }
        QCOMPARE(m_settings->string(QStringLiteral("local/unfinished_download")),
                 QStringLiteral("test/Big-GGUF:Q4_K_M"));
    }

    void welcomeOffersTheLocalServerFound()
    {
        m_server->setModels({QStringLiteral("qwen2.5:7b"), QStringLiteral("llama3.2")});
        // Ollama is configured but not running where the settings say.
        m_settings->setValue(QStringLiteral("provider"), QStringLiteral("ollama"));
        m_settings->setValue(QStringLiteral("providers/ollama/base_url"),
                             QStringLiteral("http://127.0.0.1:%1/v1").arg(closedPort()));
        ConversationStore store(m_settings->dataDirectory());
        QVERIFY(store.open());
        MainWindow window(m_settings.get(), &store);
        // The fake server stands in for Ollama's port; LM Studio's is closed.
        window.welcomePage()->setCandidates({
            {QStringLiteral("ollama"), m_server->baseUrl().toString()},
            {QStringLiteral("lmstudio"), QStringLiteral("http://127.0.0.1:%1/v1").arg(closedPort())},
        });
        QSignalSpy scanned(window.welcomePage(), &WelcomePage::scanFinished);
        window.resize(1100, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.welcomePage()->isVisible(), 10000);
        QVERIFY(!window.composer()->isVisible());
        QVERIFY(scanned.count() > 0 || scanned.wait(10000));
        // Ollama's offer; with a llama-server here (the runner's image on the engine counts), the
        // download of a model to run here comes first.
        const QList<QPushButton *> offers = window.welcomePage()->useButtons();
        const auto ollama = std::find_if(offers.cbegin(), offers.cend(), [](const QPushButton *button) {
            return button->accessibleName() == QStringLiteral("Use Ollama");
        });
        QVERIFY(ollama != offers.cend());
        QCOMPARE(offers.size() - 1, std::count_if(offers.cbegin(), offers.cend(), [](const QPushButton *button) {
                     return button->accessibleName().startsWith(QLatin1String("Download "));
                 }));
        QPushButton *use = *ollama;
        checkAccessibleNames(window.welcomePage());
        saveScreenshot(window.welcomePage(), QStringLiteral("welcome.png"));

        use->click();
        QVERIFY(!window.welcomePage()->isVisible());
        QVERIFY(window.composer()->isVisible());
        QCOMPARE(m_settings->string(QStringLiteral("provider")), QStringLiteral("ollama"));
        QCOMPARE(m_settings->provider().baseUrl, m_server->baseUrl().toString());
        QCOMPARE(m_settings->provider().model, QStringLiteral("qwen2.5:7b"));
        // The models of the server now chosen reach the composer, and the page stays away.
        QTRY_VERIFY_WITH_TIMEOUT(window.composer()->modelPicker()->findText(QStringLiteral("llama3.2")) >= 0, 15000);
        QVERIFY(!window.welcomePage()->isVisible());
    }

    // Before any provider was chosen, the welcome page offers the choice: that the default provider
    // has no key is no news then. Once it was chosen, the page says what it lacks.
    void theFirstRunOffersAChoiceNotAnError()
    {
        qunsetenv("SANDPIPER_API_KEY");
        ConversationStore store(m_settings->dataDirectory());
        QVERIFY(store.open());
        const auto welcomeSays = [](MainWindow &window, const QString &words) {
            const QList<QLabel *> labels = window.welcomePage()->findChildren<QLabel *>();
            return std::any_of(labels.cbegin(), labels.cend(),
                               [&words](const QLabel *label) { return label->text().contains(words); });
        };
        const QString choice = QStringLiteral("Answers can come from a model on this computer");
        const QString noKey = QStringLiteral("No API key for OpenAI was found.");
        {
            MainWindow window(m_settings.get(), &store);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QTRY_VERIFY_WITH_TIMEOUT(window.welcomePage()->isVisible() && welcomeSays(window, choice), 10000);
            QVERIFY(!welcomeSays(window, noKey));
        }
        m_settings->setValue(QStringLiteral("provider"), QStringLiteral("openai"));
        MainWindow window(m_settings.get(), &store);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.welcomePage()->isVisible() && welcomeSays(window, noKey), 10000);
    }

    void aWorkingProviderShowsNoWelcome()
    {
        m_settings->setValue(QStringLiteral("provider"), QStringLiteral("custom"));
        m_settings->setValue(QStringLiteral("providers/custom/base_url"), m_server->baseUrl().toString());
        ConversationStore store(m_settings->dataDirectory());
        QVERIFY(store.open());
        MainWindow window(m_settings.get(), &store);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.composer()->modelPicker()->findText(QStringLiteral("gpt-4o-mini")) >= 0, 15000);
        QVERIFY(!window.welcomePage()->isVisible());
    }
};

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
