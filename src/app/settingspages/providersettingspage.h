#pragma once

#include <llm/modelreport.h>
#include <llm/providerconfig.h>

#include <QPointer>
#include <QWidget>

#include <QCoroTask>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace Sandpiper {

class ModelProbe;
class Settings;

// The settings' Providers tab: the provider and its address, key, default model and extra
// headers; what the model in the field takes (its context window, images) and how its tool calls
// and reasoning are handled (issue 12); the longest side of images sent; and a connection test
// that fills in the server's models; "Test this model" runs the model's report card (ModelProbe,
// asynchronous, cancellable), shows it, sets the switches it calls for in the fields (saved with
// OK) and keeps the card, whose verdict then stands beside the model's name. The key goes to the
// keychain (storeKey()), never to the settings.
class ProviderSettingsPage : public QWidget
{
    Q_OBJECT

public:
    explicit ProviderSettingsPage(Settings *settings, QWidget *parent = nullptr);

    QComboBox *presetPicker() const { return m_preset; }
    QLineEdit *baseUrlField() const { return m_baseUrl; }
    QLineEdit *apiKeyField() const { return m_apiKey; }
    QComboBox *modelPicker() const { return m_model; }
    QPlainTextEdit *headersField() const { return m_headers; }
    QPushButton *testButton() const { return m_testButton; }
    QLabel *testResult() const { return m_testResult; }
    QLabel *baseUrlError() const { return m_baseUrlError; }
    QLabel *apiKeyNote() const { return m_apiKeyNote; }
    QPushButton *probeButton() const { return m_probeButton; }
    QPushButton *probeCancelButton() const { return m_probeCancel; }
    QLabel *probeStatus() const { return m_probeStatus; }
    QPlainTextEdit *reportCard() const { return m_reportCard; }
    QLabel *modelVerdict() const { return m_modelVerdict; }

    // False, with the reason shown, when the base URL is not one; a valid one is written out
    // whole in the field.
    bool check();
    // Writes the fields to the settings, the key aside.
    void save();
    // Whether a key was typed that storeKey() has not handed over yet.
    bool hasNewKey() const;
    // Writes the typed key to the keychain for the provider and says so with apiKeyEntered().
    // False when the keychain refused it: the page says the key lasts for this run only.
    QCoro::Task<bool> storeKey();
    void testConnection();
    // Selects the provider "This computer" with the model NAME.
    void chooseLocalModel(const QString &name);
    // Runs the report card of the model in the field; cancelProbe() stops it.
    void probeModel();
    void cancelProbe();

Q_SIGNALS:
    // A key was typed in for PROVIDERID; REMEMBERED is false when the keychain refused it and
    // it lives in memory for this session only.
    void apiKeyEntered(const QString &providerId, const QString &key, bool remembered);
    void connectionTested(bool ok);
    // The report card came (or stopped, cancelled or failed: the card says so).
    void probeFinished(const Sandpiper::ModelReport &report);
    // Something on this page the user must see now.
    void needsAttention();

private:
    void buildForm();
    // Shows or hides the rows of a server's address, key, headers and tests.
    void showServerRows(bool shown);
    void loadProvider(const QString &providerId);
    // The context window and image choice of the model in the field, as set for it.
    void loadModelChoices();
    QString currentProviderId() const;
    QCoro::Task<> runConnectionTest();
    QCoro::Task<> runProbe();
    // The provider as the fields have it, with its key (typed, or the stored one).
    QCoro::Task<ProviderConfig> configFromFields();
    // The server's address as the fields have it, written out whole.
    QString effectiveBaseUrl() const;
    // Sets the switches of REPORT in the fields; REPORT's marks say which were set.
    ModelReport applySwitches(ModelReport report);
    void showVerdict();

    Settings *m_settings;
    QComboBox *m_preset;
    QLineEdit *m_baseUrl;
    QLabel *m_baseUrlError;
    QLineEdit *m_apiKey;
    QLabel *m_apiKeyNote;
    QComboBox *m_model;
    QPlainTextEdit *m_headers;
    // Local models as they are (issue 12): the model's context window, tool calls written as
    // text, reasoning sent back between tool rounds.
    QSpinBox *m_contextWindow;
    QComboBox *m_modelImages;
    QSpinBox *m_imageSide;
    QCheckBox *m_textToolCalls;
    QCheckBox *m_reasoningBack;
    QPushButton *m_testButton;
    QLabel *m_testResult;
    QLabel *m_modelVerdict;
    QPushButton *m_probeButton;
    QPushButton *m_probeCancel;
    QLabel *m_probeStatus;
    QPlainTextEdit *m_reportCard;
    // The rows that "This computer" has no use for (it has no address, key or headers of its own).
    QList<QObject *> m_serverRows;
    QFormLayout *m_form = nullptr;
    QPointer<ModelProbe> m_probe;
    bool m_probing = false; // from the test's start, before m_probe is made, to its end
    // The key already handed over for this provider, so a second OK does not store it again.
    QString m_keyHandled;
};

} // namespace Sandpiper
