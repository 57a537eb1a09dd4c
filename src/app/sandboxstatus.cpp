#include "sandboxstatus.h"

#include "elidedlabel.h"

#include <logging.h>
#include <sandbox/engineservice.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>

#include <QCoroTask>

namespace Sandpiper {

SandboxStatus::SandboxStatus(Settings *settings, SessionManager *sessions, QWidget *window)
    : QObject(window)
    , m_settings(settings)
    , m_sessions(sessions)
    , m_label(new ElidedLabel(window))
    , m_banner(new QLabel(window))
{
    m_label->setAccessibleName(tr("Docker state"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setAccessibleName(tr("Sandbox status"));
    m_banner->setStyleSheet(
        QStringLiteral("QLabel { background: #fff3cd; color: #664d03; padding: 8px; border-radius: 4px; }"));
    m_banner->setVisible(false);
}

void SandboxStatus::check()
{
    if (!m_settings->boolean(QStringLiteral("sandbox/enabled"))) {
        m_label->setText(tr("Python: off"));
        m_healthKnown = true;
        m_health.problem = SandboxHealth::Problem::None;
        Q_EMIT checked();
        return;
    }
    m_label->setText(tr("Docker: checking…"));
    QCoro::connect(SandboxHealth::check(m_settings->string(QStringLiteral("sandbox/image"))), this,
                   [this](const SandboxHealth &health) {
                       m_health = health;
                       m_healthKnown = true;
                       m_sessions->setPythonAvailable(health.ok());
                       m_label->setText(health.ok() ? readyText(false) : tr("Docker: unavailable"));
                       m_banner->setText(
                           health.ok() ? QString()
                                       : QStringLiteral("%1<br><code>%2</code>")
                                             .arg(health.message.toHtmlEscaped(), health.command.toHtmlEscaped()));
                       m_banner->setVisible(!health.ok());
                       Q_EMIT changed();
                       Q_EMIT checked();
                       if (health.ok())
                           checkEngine();
                   });
    QCoro::connect(EngineService::removeLeftoverContainers(), this, [](int removed) {
        if (removed > 0)
            qCInfo(lcApp) << "removed" << removed << "sandbox containers left behind";
    });
}

void SandboxStatus::showKernel(bool alive)
{
    if (m_healthKnown && m_health.ok())
        m_label->setText(readyText(alive));
}

QString SandboxStatus::readyText(bool kernelAlive) const
{
    const QString text = kernelAlive ? tr("Python: running") : tr("Docker: ready");
    // A remote engine says so, with what every execution pays there: a round trip on the kernel's
    // channel when it was measured, else the docker command's.
    if (!m_remoteEngine)
        return text;
    const qint64 roundTrip =
        m_remoteEngine->channelRoundTripMs >= 0 ? m_remoteEngine->channelRoundTripMs : m_remoteEngine->roundTripMs;
    return tr("%1 (remote, %2 ms)").arg(text).arg(roundTrip);
}

void SandboxStatus::checkEngine()
{
    QCoro::connect(EngineStatus::check(m_settings->string(QStringLiteral("sandbox/image"))), this,
                   [this](const EngineStatus &engine) {
                       const bool remote = engine.answers && engine.locality == EngineLocality::Kind::Remote;
                       m_remoteEngine = remote ? std::optional<EngineStatus>(engine) : std::nullopt;
                       m_label->setToolTip(engine.summary());
                       Q_EMIT changed();
                   });
}

} // namespace Sandpiper
