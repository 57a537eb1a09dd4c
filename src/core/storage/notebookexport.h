#pragma once

#include "storage/conversationsnapshot.h"
#include "storage/storeresult.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

namespace Sandpiper {

// A conversation as a Jupyter notebook (nbformat 4.5), for a colleague to open in Jupyter: the
// user's and the model's messages are Markdown cells, each execution is a code cell with its
// outputs (stream, execute_result, display_data with the PNG figures embedded, error), numbered
// in the order they ran; the images of the user's messages are attachments of their cells. The kernel spec and the
// sandbox image's tag and Python version are in the notebook's metadata.
//
// Figures are read from the conversation's folder through SandboxFolder (never a link, only a
// PNG within SandboxFigure's limits); one that is gone or refused becomes a line of text in its
// place, so the export never fails for it.
class NotebookExport
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::NotebookExport)

public:
    // Where the code ran; an empty field is left out of the metadata.
    struct Environment {
        QString image;         // the sandbox image's tag
        QString pythonVersion; // e.g. "3.13.5"
    };

    // What went into a notebook, for the user.
    struct Summary {
        int codeCells = 0;
        int markdownCells = 0;
        int figures = 0;        // embedded
        int missingFigures = 0; // gone from the folder or refused
        int images = 0;         // of the user's messages, attached to their cells
        int missingImages = 0;
    };

    static constexpr int formatMajor = 4;
    static constexpr int formatMinor = 5;

    // The notebook of SNAPSHOT; figures are read from CONVERSATIONFOLDER.
    static QJsonObject toJson(const ConversationSnapshot &snapshot, const QString &conversationFolder,
                              const Environment &environment, Summary *summary = nullptr);
    // Writes it to FILEPATH atomically: a failed write leaves no half file.
    static StoreResult<Summary> write(const ConversationSnapshot &snapshot, const QString &conversationFolder,
                                      const QString &filePath, const Environment &environment);
};

} // namespace Sandpiper
