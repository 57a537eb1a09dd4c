#pragma once

#include "chat/markdowncontext.h"

#include <sandbox/executionresult.h>

#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace Sandpiper {

// What one run of Python produced besides its text: Markdown, tables, SVG images, figures, the
// files it wrote, and the notices of what Sandpiper added, stopped, refused or did not keep,
// each in one wording. The chat's tool card and the code inspector both show a run with it.
// What the sandbox named is shown as plain text, never as HTML.
class ExecutionResultView : public QWidget
{
    Q_OBJECT

public:
    // Where the run shows. On a card, figures take the chat's width and the reason Sandpiper
    // stopped the run is a notice (the header says only that it did); in the inspector, figures
    // are thumbnails in a row and the status line gives that reason.
    enum class Place { Card, Inspector };

    // FOLDER is the conversation's folder on this machine, where the run's files are; MARKDOWN
    // is what its Markdown is drawn with (see MarkdownView).
    ExecutionResultView(const ExecutionResult &result, const QString &folder, Place place,
                        const MarkdownContext &markdown = {}, QWidget *parent = nullptr);

    // How a run ended, in a word or two: "ok", "error", "timed out", "stopped by Sandpiper".
    static QString statusText(const ExecutionResult &result);

    int figureCount() const;
    // An export asked for with tableSaveRequested() ended (see DataTableView::showSaved).
    void showTableSaved(int tableIndex, const QString &fileName, const QString &error);

Q_SIGNALS:
    // Table TABLEINDEX is to be written whole by the sandbox, as "csv" or "xlsx".
    void tableSaveRequested(int tableIndex, const QString &format);
    // Figure NAME is to go to the model with the next message.
    void imageShowRequested(const QString &name);

private:
    void addFigures(const ExecutionResult &result, const QString &folder, Place place);
    void addNotices(const ExecutionResult &result, Place place);
    // What Sandpiper stopped, refused or did not keep (a warning), or what it adds (a note).
    enum class Notice { Warning, Note };
    void addNotice(const QString &text, Notice kind);

    QVBoxLayout *m_layout;
};

} // namespace Sandpiper
