#pragma once

#include <llm/providerconfig.h>

#include <QFrame>
#include <QPointer>
#include <QSet>

#include <QCoroTask>

class QPushButton;

namespace Sandpiper {

class ElidedLabel;
class ModelProbe;
class SessionManager;
class Settings;

// The first time a model has answered and it has no report card: above the composer, an offer
// to test what it really does (ModelProbe: a few short requests, their cost said), once per
// model and run of the app. With consent the card runs quietly, is kept, sets the switches it
// calls for and says its verdict in the status bar. models/test_first_use: ask (the offer),
// always (no question), never. Hidden otherwise.
class FirstUseProbe : public QFrame
{
    Q_OBJECT

public:
    FirstUseProbe(Settings *settings, SessionManager *sessions, QWidget *parent = nullptr);
    ~FirstUseProbe() override;

    // PROVIDER has answered: offers its card (or runs it) when it has none yet.
    void answered(const ProviderConfig &provider);

    ElidedLabel *textLabel() const { return m_text; }
    QPushButton *testButton() const { return m_test; }
    QPushButton *laterButton() const { return m_later; }
    QPushButton *neverButton() const { return m_never; }

Q_SIGNALS:
    // What the card found, or why it could not be made: for the status bar.
    void said(const QString &message);

private:
    QCoro::Task<> run(ProviderConfig provider);
    // Hides the offer, the focus going back to where it was before.
    void dismiss();

    Settings *m_settings;
    SessionManager *m_sessions;
    ProviderConfig m_offered;
    QSet<QString> m_considered; // server and model, once per run
    QPointer<ModelProbe> m_probe;
    QPointer<QWidget> m_focusBefore;
    ElidedLabel *m_text;
    QPushButton *m_test;
    QPushButton *m_later;
    QPushButton *m_never;
};

} // namespace Sandpiper
