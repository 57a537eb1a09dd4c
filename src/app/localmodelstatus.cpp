#include "localmodelstatus.h"

#include "elidedlabel.h"

#include <session/localmodelhost.h>
#include <session/modeldownloads.h>

#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QStatusBar>
#include <QToolButton>
#include <QUrl>

namespace Sandpiper {

LocalModelStatus::LocalModelStatus(LocalModelHost *host, ModelDownloads *downloads, QWidget *parent)
    : QWidget(parent)
    , m_host(host)
    , m_downloads(downloads)
    , m_label(new ElidedLabel)
    , m_log(new QToolButton)
    , m_download(new QToolButton)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_log);
    layout->addWidget(m_download);
    m_download->setAutoRaise(true);
    m_download->setAccessibleName(tr("The model being downloaded"));
    m_download->setToolTip(tr("Opens Settings › Models, where the download can be paused, resumed or canceled."));
    m_download->setVisible(false);
    connect(m_download, &QToolButton::clicked, this, &LocalModelStatus::downloadsRequested);
    if (downloads)
        connect(downloads, &ModelDownloads::changed, this, &LocalModelStatus::showDownload);
    m_label->setAccessibleName(tr("The model on this computer"));
    m_log->setText(tr("Log"));
    m_log->setAutoRaise(true);
    m_log->setAccessibleName(tr("Open the log of the model on this computer"));
    m_log->setToolTip(tr("Opens llama-server's log: what it loaded, with which settings, and why it stopped."));
    connect(m_log, &QToolButton::clicked, this, [this] {
        const QString log = m_host->logFile();
        if (QFileInfo::exists(log) && QDesktopServices::openUrl(QUrl::fromLocalFile(log)))
            return;
        // No program here opens text files: where it is, to be copied.
        show(tr("No program here opens the log; it is %1").arg(QDir::toNativeSeparators(log)));
    });
    connect(host, &LocalModelHost::stateChanged, this,
            [this](LocalRunner::State, const QString &message) { show(message); });
    show(host->message());
    showDownload();
}

QString LocalModelStatus::text() const
{
    return m_download->isVisibleTo(this) ? m_label->text() + QLatin1Char(' ') + m_download->text() : m_label->text();
}

void LocalModelStatus::show(const QString &message)
{
    // A failure quotes the server's log after its first line: the tooltip has it all.
    m_label->setText(message.section(QLatin1Char('\n'), 0, 0));
    // Which llama-server it is (on this computer or in a container) is said there too.
    const QString source = m_host->source();
    m_label->setToolTip(source.isEmpty() || message.isEmpty() ? message : message + QLatin1Char('\n') + source);
    m_label->setVisible(!message.isEmpty());
    m_log->setVisible(!message.isEmpty());
    m_log->setEnabled(QFileInfo::exists(m_host->logFile()));
    reveal(!message.isEmpty() || m_download->isVisibleTo(this));
}

void LocalModelStatus::showDownload()
{
    const QString summary = m_downloads ? m_downloads->summary() : QString();
    m_download->setText(summary);
    m_download->setVisible(!summary.isEmpty());
    reveal(!summary.isEmpty() || !m_label->text().isEmpty());
}

void LocalModelStatus::reveal(bool shown)
{
    // While the status bar shows a message of its own it hides its other widgets, and shows them
    // again when the message goes; one that came up meanwhile would be drawn over the message.
    const auto *bar = qobject_cast<QStatusBar *>(parentWidget());
    if (shown && bar && !bar->currentMessage().isEmpty()) {
        hide();
        setAttribute(Qt::WA_WState_ExplicitShowHide, false); // as QStatusBar hides it: shown again after
        return;
    }
    setVisible(shown);
}

} // namespace Sandpiper
