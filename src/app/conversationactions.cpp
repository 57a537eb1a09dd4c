#include "conversationactions.h"

#include "conversationlistmodel.h"
#include "conversationsidebar.h"
#include "savedfilenotice.h"

#include <session/conversationsession.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>

#include <QInputDialog>
#include <QListView>
#include <QMessageBox>
#include <QStatusBar>

#include <QCoroTask>

#include <algorithm>

namespace Sandpiper {

ConversationActions::ConversationActions(const Parts &parts, QWidget *window)
    : QObject(window)
    , m_parts(parts)
    , m_window(window)
{}

void ConversationActions::rename(ConversationSession *session)
{
    if (!session)
        return;
    QInputDialog dialog(m_window);
    dialog.setWindowTitle(tr("Rename conversation"));
    dialog.setLabelText(tr("Title:"));
    dialog.setTextValue(session->state().title);
    // Wide enough to read a title whole (its own size showed a few words of it), within the window.
    const int readable = dialog.fontMetrics().averageCharWidth() * 60;
    dialog.resize(std::max(dialog.minimumSizeHint().width(), std::min(readable, m_window->width())),
                  dialog.sizeHint().height());
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString title = dialog.textValue().trimmed();
    if (title.isEmpty())
        return;
    if (auto renamed = session->rename(title); !renamed)
        QMessageBox::warning(m_window, tr("Rename conversation"), renamed.error().message);
}

void ConversationActions::remove(ConversationSession *session)
{
    if (!session)
        return;
    const QString title = session->state().title;
    const auto answer = QMessageBox::question(
        m_window, tr("Delete conversation"),
        title.isEmpty() ? tr("Delete this conversation, its files and its figures? This cannot be undone.")
                        : tr("Delete “%1”, its files and its figures? This cannot be undone.").arg(title));
    if (answer != QMessageBox::Yes)
        return;
    const qint64 doomed = session->id();
    Q_EMIT removing(doomed);
    if (auto deleted = m_parts.sessions->remove(doomed); !deleted)
        QMessageBox::warning(m_window, tr("Delete conversation"), deleted.error().message);
    ConversationSidebar *sidebar = m_parts.sidebar;
    sidebar->refresh();
    if (sidebar->model()->rowCount() > 0)
        sidebar->list()->setCurrentIndex(sidebar->model()->index(0));
}

void ConversationActions::exportConversation(ConversationSession *session, ConversationFiles::Format format)
{
    if (!session)
        return;
    if (const auto path = ConversationFiles::exportConversation(m_window, m_parts.store, session->id(), format))
        m_parts.savedNotice->announce(*path);
}

void ConversationActions::exportNotebook(ConversationSession *session)
{
    if (!session)
        return;
    m_parts.statusBar->showMessage(tr("Exporting the notebook…"));
    QCoro::connect(ConversationFiles::exportNotebook(m_window, m_parts.store, session->id(),
                                                     m_parts.settings->string(QStringLiteral("sandbox/image"))),
                   this, [this](const std::optional<ConversationFiles::ExportedNotebook> &exported) {
                       m_parts.statusBar->clearMessage();
                       if (!exported)
                           return;
                       const NotebookExport::Summary &summary = exported->summary;
                       m_parts.savedNotice->announce(
                           exported->path,
                           summary.missingFigures == 0
                               ? tr("%n code cell(s).", "", summary.codeCells)
                               : tr("%n figure(s) were missing or refused; the notebook names them in their place.", "",
                                    summary.missingFigures));
                   });
}

void ConversationActions::import()
{
    if (const auto imported = ConversationFiles::importConversation(m_window, m_parts.store)) {
        m_parts.sidebar->select(*imported);
        Q_EMIT this->imported(*imported);
    }
}

} // namespace Sandpiper
