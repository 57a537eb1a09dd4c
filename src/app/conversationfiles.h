#pragma once

#include <storage/notebookexport.h>

#include <QCoreApplication>

#include <QCoroTask>

#include <optional>

class QWidget;

namespace Sandpiper {

class ConversationStore;

// The File menu's conversation files: export as Markdown, JSON or a Jupyter notebook, import from JSON. Each asks
// for the file, does the work and tells the user what went wrong, if anything.
class ConversationFiles
{
    Q_DECLARE_TR_FUNCTIONS(ConversationFiles)

public:
    enum class Format { Markdown, Json };
    struct ExportedNotebook {
        QString path;
        NotebookExport::Summary summary;
    };

    // The file the conversation was written to, or nothing when the user cancelled or it could
    // not be written (said so).
    static std::optional<QString> exportConversation(QWidget *parent, ConversationStore *store, qint64 conversationId,
                                                     Format format);
    // Asks for the file and writes the conversation as a notebook naming IMAGE (the sandbox
    // image) and its Python version, which Docker is asked for without blocking the window. The
    // file and what the notebook holds, or nothing when the user cancelled or it could not be
    // written (said so).
    static QCoro::Task<std::optional<ExportedNotebook>> exportNotebook(QWidget *parent, ConversationStore *store,
                                                                       qint64 conversationId, QString image);
    // The imported conversation, or nothing when the user cancelled or the file was refused.
    static std::optional<qint64> importConversation(QWidget *parent, ConversationStore *store);
};

} // namespace Sandpiper
