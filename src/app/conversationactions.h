#pragma once

#include "conversationfiles.h"

#include <QObject>

class QStatusBar;
class QWidget;

namespace Sandpiper {

class ConversationSession;
class ConversationSidebar;
class ConversationStore;
class SavedFileNotice;
class SessionManager;
class Settings;

// What the user does to a conversation as a whole, from the File menu and the conversation
// list: rename, delete, export (Markdown, JSON, notebook) and import. Each asks in a dialog over
// WINDOW and says there what went wrong; a file written is announced in the saved-file notice.
// A null session (none on screen) is left alone.
class ConversationActions : public QObject
{
    Q_OBJECT

public:
    struct Parts {
        Settings *settings;
        ConversationStore *store;
        SessionManager *sessions;
        ConversationSidebar *sidebar;
        SavedFileNotice *savedNotice;
        QStatusBar *statusBar;
    };
    ConversationActions(const Parts &parts, QWidget *window);

    void rename(ConversationSession *session);
    // Asks first; once deleted, the list selects its first conversation.
    void remove(ConversationSession *session);
    void exportConversation(ConversationSession *session, ConversationFiles::Format format);
    void exportNotebook(ConversationSession *session);
    // From the file the user picks; the list selects it.
    void import();

Q_SIGNALS:
    // The session is deleted next: nothing may show it any more.
    void removing(qint64 id);
    void imported(qint64 id);

private:
    Parts m_parts;
    QWidget *m_window;
};

} // namespace Sandpiper
