#include "savedfilenotice.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDesktopServices>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QStatusBar>
#include <QToolButton>
#include <QUrl>

namespace Sandpiper {

SavedFileNotice::SavedFileNotice(QDBusConnection connection, QWidget *parent)
    : QWidget(parent)
    , m_connection(std::move(connection))
    , m_label(new QLabel)
    , m_show(new QToolButton)
    , m_close(new QToolButton)
{
    setAccessibleName(tr("Saved file"));
    m_label->setTextFormat(Qt::PlainText);
    // A long path must not widen the window: the label takes the room there is and cuts the
    // message short (the tool tip has all of it).
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_label->setMinimumWidth(fontMetrics().averageCharWidth() * 12);
    m_label->installEventFilter(this);
    m_show->setText(tr("Show in folder"));
    m_show->setAccessibleName(tr("Show the saved file in its folder"));
    m_show->setAutoRaise(true);
    m_close->setText(QStringLiteral("×"));
    m_close->setToolTip(tr("Dismiss"));
    m_close->setAccessibleName(tr("Dismiss the note about the saved file"));
    m_close->setAutoRaise(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_show);
    layout->addWidget(m_close);
    connect(m_show, &QToolButton::clicked, this, &SavedFileNotice::showInFolder);
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void SavedFileNotice::announce(const QString &path, const QString &detail)
{
    m_path = QFileInfo(path).absoluteFilePath();
    const QFileInfo file(m_path);
    // The home folder as "~", as shells and file managers name it.
    QString folder = file.absolutePath();
    if (const QString home = QDir::homePath(); folder == home || folder.startsWith(home + QLatin1Char('/')))
        folder = QLatin1Char('~') + folder.mid(home.size());
    m_message = tr("Saved “%1” in %2.").arg(file.fileName(), QDir::toNativeSeparators(folder));
    if (!detail.isEmpty())
        m_message += QLatin1Char(' ') + detail;
    m_label->setToolTip(QDir::toNativeSeparators(m_path));
    m_label->setAccessibleName(m_message);
    elide();
    updateGeometry();
    // A message of the status bar's own would cover this note.
    if (auto *bar = qobject_cast<QStatusBar *>(parentWidget()))
        bar->clearMessage();
    show();
}

QSize SavedFileNotice::sizeHint() const
{
    const int spacing = layout()->spacing();
    return {m_label->fontMetrics().horizontalAdvance(m_message) + spacing + m_show->sizeHint().width() + spacing +
                m_close->sizeHint().width(),
            QWidget::sizeHint().height()};
}

bool SavedFileNotice::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_label && event->type() == QEvent::Resize)
        elide();
    return QWidget::eventFilter(watched, event);
}

void SavedFileNotice::elide()
{
    m_label->setText(m_label->fontMetrics().elidedText(m_message, Qt::ElideRight, m_label->width()));
}

void SavedFileNotice::showInFolder()
{
    const QUrl folder = QUrl::fromLocalFile(QFileInfo(m_path).absolutePath());
    if (!m_connection.isConnected()) {
        QDesktopServices::openUrl(folder);
        return;
    }
    QDBusMessage call = QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.FileManager1"), QStringLiteral("/org/freedesktop/FileManager1"),
        QStringLiteral("org.freedesktop.FileManager1"), QStringLiteral("ShowItems"));
    call << QStringList{QUrl::fromLocalFile(m_path).toString()} << QString();
    auto *watcher = new QDBusPendingCallWatcher(m_connection.asyncCall(call, 5000), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [folder](QDBusPendingCallWatcher *finished) {
        // No file manager on the bus: the folder opens in whatever the desktop opens folders with.
        if (finished->isError())
            QDesktopServices::openUrl(folder);
        finished->deleteLater();
    });
}

} // namespace Sandpiper
