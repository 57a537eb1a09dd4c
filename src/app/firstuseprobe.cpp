#include "firstuseprobe.h"

#include "elidedlabel.h"
#include "flowlayout.h"

#include <llm/modelprobe.h>
#include <session/conversationsession.h>
#include <session/sessionmanager.h>
#include <settings/modelreports.h>
#include <settings/settings.h>

#include <QApplication>
#include <QLabel>
#include <QPushButton>

namespace Sandpiper {

namespace {

const QString modeKey = QStringLiteral("models/test_first_use");

} // namespace

FirstUseProbe::FirstUseProbe(Settings *settings, SessionManager *sessions, QWidget *parent)
    : QFrame(parent)
    , m_settings(settings)
    , m_sessions(sessions)
    , m_text(new ElidedLabel)
    , m_test(new QPushButton(tr("&Test it")))
    , m_later(new QPushButton(tr("Not &now")))
    , m_never(new QPushButton(tr("Ne&ver ask")))
{
    setObjectName(QStringLiteral("firstUseProbe"));
    setAccessibleName(tr("Test the model"));
    setFrameShape(QFrame::StyledPanel);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setAccessibleName(tr("What testing the model does"));
    m_test->setAccessibleName(tr("Test what the model does"));
    m_later->setAccessibleName(tr("Not now: ask again the next time Sandpiper starts"));
    m_never->setAccessibleName(tr("Never offer to test a model"));
    // The question (shortened with "…" where the window is narrow, whole in its tooltip) and its
    // buttons flow into as many rows as the width needs: a small window never grows for them.
    auto *layout = new FlowLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    m_text->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    layout->addWidget(m_text);
    layout->addWidget(m_test);
    layout->addWidget(m_later);
    layout->addWidget(m_never);
    setVisible(false);

    connect(m_test, &QPushButton::clicked, this, [this] { QCoro::connect(run(m_offered), this, [] {}); });
    connect(m_later, &QPushButton::clicked, this, &FirstUseProbe::dismiss);
    connect(m_never, &QPushButton::clicked, this, [this] {
        m_settings->setValue(modeKey, QStringLiteral("never"));
        dismiss();
    });
    // Only a model that answered is worth testing: a failed turn says what to fix first.
    connect(sessions, &SessionManager::turnFinished, this, [this](qint64 id, AgentEvent::End end) {
        const ConversationSession *session = m_sessions->find(id);
        if (session && end == AgentEvent::End::Completed)
            answered(session->provider());
    });
}

FirstUseProbe::~FirstUseProbe() = default;

void FirstUseProbe::answered(const ProviderConfig &provider)
{
    const QString mode = m_settings->string(modeKey);
    if (mode == QLatin1String("never") || provider.model.isEmpty() || provider.baseUrl.isEmpty() || m_probe)
        return;
    const QString server = m_sessions->reportServer(provider);
    if (ModelReports::find(*m_settings, provider.id, server, provider.model))
        return;
    const QString which = server + QLatin1Char('\n') + provider.model;
    if (m_considered.contains(which))
        return;
    m_considered.insert(which);
    if (mode == QLatin1String("always")) {
        QCoro::connect(run(provider), this, [] {});
        return;
    }
    m_offered = provider;
    m_focusBefore = QApplication::focusWidget();
    m_text->setText(tr("Test what %1 really does? A few short requests (a few thousand tokens).").arg(provider.model));
    m_test->setToolTip(tr("Asks %1 for a plain answer, a tool call, two parallel calls, an answer after a tool result "
                          "and, where it fits, a long prompt and an image; the report card says whether it calls tools "
                          "natively or in text, where its reasoning arrives, how large its context window really is "
                          "and how fast it answers, and sets the provider's switches to match.")
                           .arg(provider.model));
    show();
}

void FirstUseProbe::dismiss()
{
    // A button of the offer had the focus: it goes back where it was (the message box), not to
    // whatever comes next in the window.
    const bool hadFocus = isAncestorOf(QApplication::focusWidget());
    hide();
    if (hadFocus && m_focusBefore && m_focusBefore->isVisible())
        m_focusBefore->setFocus(Qt::OtherFocusReason);
}

QCoro::Task<> FirstUseProbe::run(ProviderConfig provider)
{
    QPointer<FirstUseProbe> self(this);
    dismiss();
    auto *probe = new ModelProbe(provider, this);
    m_probe = probe;
    Q_EMIT said(tr("Testing %1…").arg(provider.model));
    ModelReport report = co_await probe->run();
    if (!self)
        co_return;
    probe->deleteLater();
    if (!report.answered()) {
        Q_EMIT said(tr("%1 could not be tested: %2").arg(provider.model, report.problems().value(0)));
        co_return;
    }
    report = ModelReports::apply(*m_settings, provider.id, report);
    ModelReports::keep(*m_settings, provider.id, report, m_sessions->reportServer(provider));
    m_sessions->applySettings();
    const QStringList set = report.switchesSet();
    Q_EMIT said(set.isEmpty()
                    ? tr("%1: %2.").arg(provider.model, report.verdict())
                    : tr("%1: %2. Set: %3.").arg(provider.model, report.verdict(), set.join(QStringLiteral(", "))));
}

} // namespace Sandpiper
