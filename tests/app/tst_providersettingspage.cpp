// The settings' Providers tab on its own: a provider's fields set as a user would, checked,
// saved and read back from the file; a base URL that is none; a key handed to the keychain; the
// connection test against a fake server; the model's report card, its switches and its verdict,
// and a test cancelled half-way.
#include "fakellmserver.h"
#include "fakestreams.h"
#include "settingsprofile.h"
#include "widgetlookup.h"

#include <llm/modelreport.h>
#include <llm/providerpresets.h>
#include <settings/modelreports.h>
#include <settingspages/providersettingspage.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <optional>

using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

void choose(QComboBox *combo, const QString &data)
{
    combo->setCurrentIndex(combo->findData(data));
}

} // namespace

class TestProviderSettingsPage : public QObject
{
    Q_OBJECT

    // Each test starts from the defaults.
    std::optional<SettingsProfile> m_profile;

private Q_SLOTS:
    void init() { m_profile.emplace(); }

    void savesTheChosenProviderAndItsModel()
    {
        {
            ProviderSettingsPage page(m_profile->settings());
            choose(page.presetPicker(), QStringLiteral("llamacpp"));
            page.baseUrlField()->setText(QStringLiteral("localhost:8080/v1/chat/completions/"));
            page.modelPicker()->setEditText(QStringLiteral("qwen3-8b"));
            page.headersField()->setPlainText(QStringLiteral("X-Title: Sandpiper\n"));
            findNamed<QSpinBox>(&page, QStringLiteral("Context window of this model"))->setValue(32768);
            choose(findNamed<QComboBox>(&page, QStringLiteral("Whether this model takes images")),
                   QStringLiteral("no"));
            findNamed<QSpinBox>(&page, QStringLiteral("Longest side of images sent to the model, in pixels"))
                ->setValue(768);
            auto *textCalls = findNamed<QCheckBox>(&page, QStringLiteral("Run tool calls written as text"));
            QVERIFY(textCalls->isChecked());
            textCalls->setChecked(false);
            QVERIFY(page.check());
            // Written out whole where the user can see it.
            QCOMPARE(page.baseUrlField()->text(), QStringLiteral("http://localhost:8080/v1"));
            page.save();
        }
        const auto reopened = m_profile->reopened();
        QCOMPARE(reopened->string(QStringLiteral("provider")), QStringLiteral("llamacpp"));
        const ProviderConfig provider = reopened->provider();
        QCOMPARE(provider.baseUrl, QStringLiteral("http://localhost:8080/v1"));
        QCOMPARE(provider.model, QStringLiteral("qwen3-8b"));
        QCOMPARE(provider.extraHeaders.size(), 1);
        QCOMPARE(provider.contextWindows.value(QStringLiteral("qwen3-8b")), 32768);
        QCOMPARE(provider.imageModels.value(QStringLiteral("qwen3-8b"), true), false);
        QVERIFY(!provider.recoverTextToolCalls);
        QCOMPARE(reopened->integer(QStringLiteral("images/max_side")), 768);
        // Left as the preset has it, the switch stays empty and follows the preset.
        QCOMPARE(reopened->string(QStringLiteral("providers/llamacpp/reasoning_back")), QString());

        // Shown as saved; another model has choices of its own, another provider its own fields.
        ProviderSettingsPage again(reopened.get());
        QCOMPARE(again.presetPicker()->currentData(), QStringLiteral("llamacpp"));
        QCOMPARE(again.baseUrlField()->text(), QStringLiteral("http://localhost:8080/v1"));
        QCOMPARE(findNamed<QSpinBox>(&again, QStringLiteral("Context window of this model"))->value(), 32768);
        again.modelPicker()->setEditText(QStringLiteral("another"));
        QCOMPARE(findNamed<QSpinBox>(&again, QStringLiteral("Context window of this model"))->value(), 0);
        choose(again.presetPicker(), QStringLiteral("ollama"));
        QCOMPARE(again.baseUrlField()->text(), QString());
        QCOMPARE(again.baseUrlField()->placeholderText(), findProviderPreset(QStringLiteral("ollama"))->baseUrl);
    }

    void aBaseUrlThatIsNoneIsRefused()
    {
        ProviderSettingsPage page(m_profile->settings());
        QSignalSpy attention(&page, &ProviderSettingsPage::needsAttention);
        choose(page.presetPicker(), QStringLiteral("custom"));
        page.baseUrlField()->setText(QStringLiteral("ftp://example.com/v1"));
        QVERIFY(!page.check());
        QCOMPARE(attention.size(), 1);
        QVERIFY(!page.baseUrlError()->isHidden());
        QVERIFY2(page.baseUrlError()->text().contains(QLatin1String("ftp://example.com/v1")),
                 qPrintable(page.baseUrlError()->text()));
        // Typing again takes the error away.
        QTest::keyClick(page.baseUrlField(), Qt::Key_Backspace);
        QVERIFY(page.baseUrlError()->isHidden());
        // Custom has no address of its own to fall back on.
        page.baseUrlField()->clear();
        QVERIFY(!page.check());
        choose(page.presetPicker(), QStringLiteral("openai"));
        QVERIFY(page.check());
    }

    // Handed over once; without a keychain (as here, most often) the page says the key lasts
    // for this run.
    void aTypedKeyGoesToTheKeychainOnce()
    {
        ProviderSettingsPage page(m_profile->settings());
        choose(page.presetPicker(), QStringLiteral("custom"));
        QSignalSpy entered(&page, &ProviderSettingsPage::apiKeyEntered);
        QVERIFY(!page.hasNewKey());
        page.apiKeyField()->setText(QStringLiteral(" sk-typed "));
        QVERIFY(page.hasNewKey());
        const bool stored = QCoro::waitFor(page.storeKey());
        QCOMPARE(entered.size(), 1);
        QCOMPARE(entered.at(0).at(0).toString(), QStringLiteral("custom"));
        QCOMPARE(entered.at(0).at(1).toString(), QStringLiteral("sk-typed"));
        QCOMPARE(entered.at(0).at(2).toBool(), stored);
        QCOMPARE(page.apiKeyNote()->isHidden(), stored);
        if (!stored)
            QVERIFY2(page.apiKeyNote()->text().contains(QLatin1String("keychain")),
                     qPrintable(page.apiKeyNote()->text()));
        QVERIFY(!page.hasNewKey());
        // Another provider starts with an empty field.
        choose(page.presetPicker(), QStringLiteral("openai"));
        QVERIFY(page.apiKeyField()->text().isEmpty());
        QVERIFY(page.apiKeyNote()->isHidden());
    }

    void theConnectionTestFillsInTheModels()
    {
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.setModels({QStringLiteral("alpha"), QStringLiteral("beta")});
        server.setRequiredApiKey(QStringLiteral("sk-right"));
        ProviderSettingsPage page(m_profile->settings());
        choose(page.presetPicker(), QStringLiteral("custom"));
        page.baseUrlField()->setText(server.baseUrl().toString());
        page.apiKeyField()->setText(QStringLiteral("sk-right"));
        page.modelPicker()->setEditText(QStringLiteral("beta"));
        QSignalSpy tested(&page, &ProviderSettingsPage::connectionTested);
        page.testButton()->click();
        QVERIFY(!page.testButton()->isEnabled());
        QVERIFY(tested.wait(10000));
        QCOMPARE(tested.at(0).at(0).toBool(), true);
        QVERIFY(page.testButton()->isEnabled());
        QCOMPARE(page.modelPicker()->count(), 2);
        QCOMPARE(page.modelPicker()->currentText(), QStringLiteral("beta")); // the choice stays
        QVERIFY2(page.testResult()->text().contains(QLatin1String("2 models")), qPrintable(page.testResult()->text()));
    }

    // The card of a model whose calls come as text: shown, its switch set in the field (and so
    // saved with OK), kept, and its verdict beside the model's name. The dialog answers meanwhile.
    void testsTheModel()
    {
        FakeLlmServer server;
        QVERIFY(server.listen());
        const QString call =
            QStringLiteral("<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>");
        FakeResponse slowHello = FS::openAiText(QStringLiteral("Hello there!"));
        slowHello.chunkDelay = std::chrono::milliseconds(100);
        server.enqueue(slowHello);
        server.enqueue(FS::openAiText(call));
        server.enqueue(FS::openAiText(call));
        server.enqueue(FS::openAiText(QStringLiteral("It is 14:05.")));
        ProviderSettingsPage page(m_profile->settings());
        page.show();
        choose(page.presetPicker(), QStringLiteral("custom"));
        page.baseUrlField()->setText(server.baseUrl().toString());
        page.modelPicker()->setEditText(QStringLiteral("tiny"));
        auto *textCalls = findNamed<QCheckBox>(&page, QStringLiteral("Run tool calls written as text"));
        textCalls->setChecked(false);
        QVERIFY(page.modelVerdict()->isHidden());

        QSignalSpy finished(&page, &ProviderSettingsPage::probeFinished);
        QVERIFY(page.probeButton()->isEnabled());
        QTest::mouseClick(page.probeButton(), Qt::LeftButton);
        QVERIFY(!page.probeButton()->isEnabled());
        QVERIFY(!page.probeCancelButton()->isHidden());
        // The page still takes input while the model answers.
        QTRY_VERIFY(page.probeStatus()->text().contains(QLatin1String("Step 1 of 6")));
        page.headersField()->setFocus();
        QTest::keyClicks(page.headersField(), QStringLiteral("X-A: b"));
        QCOMPARE(page.headersField()->toPlainText(), QStringLiteral("X-A: b"));
        QVERIFY(finished.wait(20000));

        const auto report = finished.at(0).at(0).value<ModelReport>();
        QCOMPARE(report.calls, ModelReport::Calls::Text);
        QVERIFY(!page.reportCard()->isHidden());
        QVERIFY2(page.reportCard()->toPlainText().contains(QLatin1String("Hermes")),
                 qPrintable(page.reportCard()->toPlainText()));
        QVERIFY(textCalls->isChecked());
        QVERIFY2(page.probeStatus()->text().contains(QLatin1String("text_tool_calls = true")),
                 qPrintable(page.probeStatus()->text()));
        QVERIFY(page.probeButton()->isEnabled());
        QVERIFY(page.probeCancelButton()->isHidden());
        QVERIFY(!page.modelVerdict()->isHidden());
        QVERIFY2(page.modelVerdict()->text().contains(QLatin1String("text calls (Hermes)")),
                 qPrintable(page.modelVerdict()->text()));
        QVERIFY(ModelReports::find(*m_profile->settings(), QStringLiteral("custom"), server.baseUrl().toString(),
                                   QStringLiteral("tiny")));
        // Another model has no card; the verdict comes back with the model.
        page.modelPicker()->setEditText(QStringLiteral("other"));
        QVERIFY(page.modelVerdict()->isHidden());
        page.modelPicker()->setEditText(QStringLiteral("tiny"));
        QVERIFY(!page.modelVerdict()->isHidden());
        page.save();
        QVERIFY(m_profile->reopened()->provider(QStringLiteral("custom")).recoverTextToolCalls);
    }

    // "Cancel test" is there only while a test runs: not when the page opens, nor when another
    // provider shows the server's rows again.
    void cancelTestOnlyWhileATestRuns()
    {
        ProviderSettingsPage page(m_profile->settings());
        QVERIFY(page.probeCancelButton()->isHidden());
        choose(page.presetPicker(), QStringLiteral("local"));
        choose(page.presetPicker(), QStringLiteral("custom"));
        QVERIFY(!page.probeButton()->isHidden());
        QVERIFY(page.probeCancelButton()->isHidden());
    }

    // Cancel stops the test at once; the card says so and nothing is set.
    void aTestIsCancelled()
    {
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.enqueue(FS::slowText(QStringLiteral("Hello there, slowly"), 20, std::chrono::milliseconds(1000)));
        ProviderSettingsPage page(m_profile->settings());
        page.show();
        choose(page.presetPicker(), QStringLiteral("custom"));
        page.baseUrlField()->setText(server.baseUrl().toString());
        page.modelPicker()->setEditText(QStringLiteral("tiny"));
        QSignalSpy finished(&page, &ProviderSettingsPage::probeFinished);
        page.probeButton()->click();
        QTRY_VERIFY(page.probeStatus()->text().contains(QLatin1String("Step 1 of 6")));
        QTRY_COMPARE(server.chatRequests().size(), 1);
        page.probeCancelButton()->setFocus();
        QTest::keyClick(page.probeCancelButton(), Qt::Key_Space);
        QVERIFY(finished.wait(5000));
        const auto report = finished.at(0).at(0).value<ModelReport>();
        QVERIFY(!report.answered());
        QVERIFY2(page.reportCard()->toPlainText().contains(QLatin1String("cancelled")),
                 qPrintable(page.reportCard()->toPlainText()));
        QCOMPARE(server.chatRequests().size(), 1);
        QVERIFY(page.probeButton()->isEnabled());
        QVERIFY(page.modelVerdict()->isHidden());
    }
};

QTEST_MAIN(TestProviderSettingsPage)
#include "tst_providersettingspage.moc"
