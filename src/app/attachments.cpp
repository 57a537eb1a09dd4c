#include "attachments.h"

#include "savelocation.h"

#include <llm/modelimage.h>
#include <session/conversationsession.h>

#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QMimeDatabase>
#include <QStatusBar>
#include <QTemporaryDir>

namespace Sandpiper {

Attachments::Attachments(QWidget *window, QStatusBar *statusBar)
    : QObject(window)
    , m_window(window)
    , m_statusBar(statusBar)
{}

QStringList Attachments::choose()
{
    const QStringList paths = QFileDialog::getOpenFileNames(m_window, tr("Attach files"), SaveLocation::folder());
    if (!paths.isEmpty())
        SaveLocation::remember(paths.constFirst());
    return paths;
}

void Attachments::attach(ConversationSession *session, const QStringList &paths)
{
    for (const QString &path : paths) {
        if (auto attached = session->attach(path); !attached)
            QMessageBox::warning(
                m_window, tr("Attach file"),
                tr("%1 could not be attached: %2").arg(QFileInfo(path).fileName(), attached.error().message));
    }
}

void Attachments::drop(ConversationSession *session, const QStringList &paths)
{
    for (const QString &path : paths) {
        const QString problem = ModelImage::check(path);
        const bool image = problem.isEmpty();
        if (auto attached = image ? session->attachImage(path) : session->attach(path); !attached) {
            QMessageBox::warning(
                m_window, image ? tr("Add image") : tr("Attach file"),
                tr("%1 could not be attached: %2").arg(QFileInfo(path).fileName(), attached.error().message));
        } else if (!image && QMimeDatabase().mimeTypeForFile(path).name().startsWith(QLatin1String("image/"))) {
            // An image the model cannot be shown still serves the code.
            m_statusBar->showMessage(
                tr("%1 is attached as a file, not shown to the model: %2").arg(QFileInfo(path).fileName(), problem),
                15000);
        }
    }
}

void Attachments::attachPasted(ConversationSession *session, const QImage &image)
{
    // Through a file of its own name, so that the attachment is recorded like any other.
    const QTemporaryDir scratch;
    const QString path = scratch.filePath(
        QStringLiteral("pasted-%1.png").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    if (!scratch.isValid() || !image.save(path, "PNG")) {
        QMessageBox::warning(m_window, tr("Paste image"), tr("The pasted image could not be saved for sending."));
        return;
    }
    if (auto attached = session->attachImage(path); !attached)
        QMessageBox::warning(m_window, tr("Paste image"),
                             tr("The pasted image could not be attached: %1").arg(attached.error().message));
}

bool Attachments::showToModel(ConversationSession *session, const QString &name)
{
    if (auto shown = session->showImage(name); !shown) {
        QMessageBox::warning(m_window, tr("Show to the model"), shown.error().message);
        return false;
    }
    m_statusBar->showMessage(tr("%1 goes to the model with your next message.").arg(QFileInfo(name).fileName()), 5000);
    return true;
}

} // namespace Sandpiper
