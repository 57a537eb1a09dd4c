#include "chat/executionresultview.h"

#include "chat/datatableview.h"
#include "chat/figureview.h"
#include "chat/markdownview.h"
#include "chat/sandboxfilerow.h"
#include "chat/svgfigure.h"

#include <session/executionmodel.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

// Rows of files a run lists; a run that writes thousands says how many more there are.
constexpr int maxListedFiles = 20;

// How wide figures and SVG images are drawn, and how tall the inspector's row of them is.
constexpr int cardFigureWidth = 640;
constexpr int thumbnailWidth = 220;
constexpr int thumbnailRowHeight = 170;

} // namespace

ExecutionResultView::ExecutionResultView(const ExecutionResult &result, const QString &folder, Place place,
                                         const MarkdownContext &markdown, QWidget *parent)
    : QWidget(parent)
    , m_layout(new QVBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    const int imageWidth = place == Place::Card ? cardFigureWidth : thumbnailWidth;
    for (const QString &text : result.markdown) {
        auto *view = new MarkdownView(markdown);
        view->setConversationFolder(folder);
        view->setMarkdownText(text);
        m_layout->addWidget(view);
    }
    for (int index = 0; index < result.tables.size(); ++index) {
        auto *view = new DataTableView(result.tables.at(index), folder);
        connect(view, &DataTableView::saveRequested, this,
                [this, index](const QString &format) { Q_EMIT tableSaveRequested(index, format); });
        m_layout->addWidget(view);
    }
    for (const QString &svg : result.svg)
        m_layout->addWidget(new SvgFigure(svg.toUtf8(), imageWidth)); // the note under it takes the whole width
    addFigures(result, folder, place);
    if (result.figuresNotKept > 0)
        addNotice(tr("And %1 more figures that were not kept: too many for one run.").arg(result.figuresNotKept),
                  Notice::Warning);
    for (const QString &file : result.files.mid(0, maxListedFiles))
        m_layout->addWidget(new SandboxFileRow(folder, file, result.onEngine.value(file, -1)));
    if (result.files.size() > maxListedFiles)
        addNotice(
            tr("And %1 more files; they are in the conversation's folder.").arg(result.files.size() - maxListedFiles),
            Notice::Warning);
    addNotices(result, place);
    // Nothing to show takes no room either: no gap under a card or in the inspector.
    if (m_layout->count() == 0)
        hide();
}

QString ExecutionResultView::statusText(const ExecutionResult &result)
{
    if (!result.stopReason.isEmpty())
        return tr("stopped by Sandpiper");
    if (result.status == ExecutionResult::Status::Interrupted && result.timedOut)
        return tr("timed out");
    return ExecutionModel::statusLabel(result.status);
}

void ExecutionResultView::addFigures(const ExecutionResult &result, const QString &folder, Place place)
{
    if (result.figures.isEmpty())
        return;
    QBoxLayout *figures = m_layout;
    if (place == Place::Inspector) {
        // A row of thumbnails that scrolls sideways: the inspector's other parts keep their room.
        auto *row = new QWidget;
        figures = new QHBoxLayout(row);
        figures->setContentsMargins(0, 0, 0, 0);
        auto *scroll = new QScrollArea;
        scroll->setWidget(row);
        scroll->setWidgetResizable(true);
        scroll->setFixedHeight(thumbnailRowHeight);
        scroll->setAccessibleName(tr("Figures"));
        m_layout->addWidget(scroll);
    }
    for (const QString &figure : result.figures) {
        auto *view = new FigureView(folder, figure, place == Place::Card ? cardFigureWidth : thumbnailWidth);
        connect(view, &FigureView::showToModelRequested, this, &ExecutionResultView::imageShowRequested);
        figures->addWidget(view, 0, Qt::AlignLeft);
    }
    if (place == Place::Inspector)
        figures->addStretch();
}

void ExecutionResultView::addNotices(const ExecutionResult &result, Place place)
{
    if (place == Place::Card && !result.stopReason.isEmpty())
        addNotice(result.stopReason, Notice::Warning);
    if (!result.refused.isEmpty())
        addNotice(tr("Sandpiper refused what the sandbox reported:") + QStringLiteral("\n• ") +
                      result.refused.join(QStringLiteral("\n• ")),
                  Notice::Warning);
    for (const QString &note : result.notes)
        addNotice(tr("Note: %1").arg(note), Notice::Note);
}

void ExecutionResultView::addNotice(const QString &text, Notice kind)
{
    // Plain text: it may quote names the sandbox chose, and they must not be read as HTML.
    auto *label = new QLabel(kind == Notice::Warning ? QStringLiteral("⚠ ") + text : text);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    label->setAccessibleName(kind == Notice::Warning ? tr("Warning") : tr("Note"));
    label->setAccessibleDescription(text);
    m_layout->addWidget(label);
}

int ExecutionResultView::figureCount() const
{
    return int(findChildren<FigureView *>().size());
}

void ExecutionResultView::showTableSaved(int tableIndex, const QString &fileName, const QString &error)
{
    const QList<DataTableView *> tables = findChildren<DataTableView *>(Qt::FindDirectChildrenOnly);
    if (tableIndex >= 0 && tableIndex < tables.size())
        tables.at(tableIndex)->showSaved(fileName, error);
}

} // namespace Sandpiper
