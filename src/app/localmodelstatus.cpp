#include "localmodelstatus.h"

#include "elidedlabel.h"

#include <session/localmodelhost.h>

#include <QDesktopServices>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QToolButton>
#include <QUrl>

namespace Sandpiper {

LocalModelStatus::LocalModelStatus(LocalModelHost *host, QWidget *parent)
    : QWidget(parent)
    , m_host(host)
    , m_label(new ElidedLabel)
    , m_log(new QToolButton)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_log);
    m_label->setAccessibleName(tr("The model on this computer"));
    m_log->setText(tr("Log"));
    m_log->setAutoRaise(true);
    m_log->setAccessibleName(tr("Open the log of the model on this computer"));
    m_log->setToolTip(tr("Opens llama-server's log: what it loaded, with which settings, and why it stopped."));
    connect(m_log, &QToolButton::clicked, this, [this] {
        if (QFileInfo::exists(m_host->logFile()))
            QDesktopServices::openUrl(QUrl::fromLocalFile(m_host->logFile()));
    });
    connect(host, &LocalModelHost::stateChanged, this,
            [this](LocalRunner::State, const QString &message) { show(message); });
    show(host->message());
}

QString LocalModelStatus::text() const
{
    return m_label->text();
}

void LocalModelStatus::show(const QString &message)
{
    // A failure quotes the server's log after its first line: the tooltip has it all.
    m_label->setText(message.section(QLatin1Char('\n'), 0, 0));
    // Which llama-server it is (on this computer or in a container) is said there too.
    const QString source = m_host->source();
    m_label->setToolTip(source.isEmpty() || message.isEmpty() ? message : message + QLatin1Char('\n') + source);
    m_log->setEnabled(QFileInfo::exists(m_host->logFile()));
    setVisible(!message.isEmpty());
}

} // namespace Sandpiper
