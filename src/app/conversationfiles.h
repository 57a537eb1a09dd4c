#pragma once

#include <QCoreApplication>

#include <optional>

class QWidget;

namespace Sandpiper {

class ConversationStore;

// The File menu's conversation files: export as Markdown or JSON, import from JSON. Each asks
// for the file, does the work and tells the user what went wrong, if anything.
class ConversationFiles
{
    Q_DECLARE_TR_FUNCTIONS(ConversationFiles)

public:
    enum class Format { Markdown, Json };

    // True when the conversation was written.
    static bool exportConversation(QWidget *parent, ConversationStore *store, qint64 conversationId, Format format);
    // The imported conversation, or nothing when the user cancelled or the file was refused.
    static std::optional<qint64> importConversation(QWidget *parent, ConversationStore *store);
};

} // namespace Sandpiper
