#include "presenters/pythonpresenter.h"

#include "chat/datatableview.h"
#include "chat/figureview.h"
#include "chat/markdownview.h"
#include "chat/sandboxfilerow.h"
#include "chat/toolcallcard.h"

#include <session/executionmodel.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QSvgRenderer>
#include <QVBoxLayout>

namespace Sandpiper {

namespace {

// Rows of files a card lists; a run that writes thousands says how many more there are.
constexpr int maxListedFiles = 20;

// A line about what the host refused or stopped, as plain text: it may quote names the sandbox
// chose, and they must not be read as HTML.
QLabel *warning(const QString &text, const QString &accessibleName)
{
    auto *label = new QLabel(QStringLiteral("⚠ ") + text);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    label->setAccessibleName(accessibleName);
    label->setAccessibleDescription(text);
    return label;
}

} // namespace

QString PythonPresenter::title(const ToolCall &) const
{
    return tr("Python");
}

QString PythonPresenter::argumentsText(const ToolCall &call) const
{
    // The code, whatever shape the model sent it in; the tool repairs the rest before it runs.
    const QJsonObject arguments = QJsonDocument::fromJson(call.arguments.toUtf8()).object();
    const QString code = arguments.value(QLatin1String("code")).toString();
    return code.isEmpty() ? call.arguments : code;
}

QString PythonPresenter::editedArguments(const QString &text) const
{
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("code"), text}}).toJson(QJsonDocument::Compact));
}

QString PythonPresenter::finishedHeader(const TurnItem &item) const
{
    const auto *result = std::get_if<ExecutionResult>(&item.result);
    if (!result)
        return ToolPresenter::finishedHeader(item);
    const QString seconds = QLocale().toString(double(result->durationMs) / 1000.0, 'f', 2);
    const QString status = !result->stopReason.isEmpty() ? tr("stopped by Sandpiper")
                           : result->status == ExecutionResult::Status::Interrupted && result->timedOut
                               ? tr("timed out")
                               : ExecutionModel::statusLabel(result->status);
    return item.origin == RunOrigin::User ? tr("You ran %1 · %2 s · %3").arg(title(item.call), seconds, status)
                                          : tr("Ran %1 · %2 s · %3").arg(title(item.call), seconds, status);
}

QString PythonPresenter::resultText(const TurnItem &item) const
{
    const auto *result = std::get_if<ExecutionResult>(&item.result);
    if (!result)
        return item.modelText;
    const ExecutionResult &r = *result;
    QString output = r.standardOutput + r.standardError;
    // A value shown as a table (or Markdown, SVG, a figure) below is not repeated as its text.
    const bool valueShownBelow = !r.valueDisplays.tables.isEmpty() || !r.valueDisplays.markdown.isEmpty() ||
                                 !r.valueDisplays.svg.isEmpty() || !r.valueDisplays.figures.isEmpty();
    if (!r.value.isEmpty() && !valueShownBelow)
        output += (output.isEmpty() || output.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n")) + r.value;
    if (!r.errorType.isEmpty() || r.status == ExecutionResult::Status::Crashed ||
        r.status == ExecutionResult::Status::Unavailable)
        output += QLatin1Char('\n') + (r.traceback.isEmpty() ? r.errorMessage : r.traceback);
    for (const QString &note : r.notes)
        output += QStringLiteral("\n") + tr("Note: %1").arg(note);
    return output.trimmed();
}

QWidget *PythonPresenter::svgImage(const QString &svg, int maxWidth)
{
    auto *label = new QLabel;
    label->setAccessibleName(tr("SVG image"));
    // Qt's SVG renderer treats the text as untrusted by default (no external files, bounded work).
    QSvgRenderer renderer(svg.toUtf8());
    if (!renderer.isValid() || renderer.defaultSize().isEmpty()) {
        label->setText(tr("(an SVG image that could not be drawn)"));
        return label;
    }
    QSize size = renderer.defaultSize();
    if (size.width() > maxWidth)
        size = size.scaled(maxWidth, maxWidth * 4, Qt::KeepAspectRatio);
    QImage image(size.boundedTo(QSize(maxWidth, maxWidth * 4)) * label->devicePixelRatioF(),
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(label->devicePixelRatioF());
    image.fill(Qt::transparent);
    QPainter painter(&image);
    renderer.render(&painter, QRectF(QPointF(), QSizeF(size)));
    painter.end();
    label->setPixmap(QPixmap::fromImage(image));
    return label;
}

void PythonPresenter::addTables(const ExecutionResult &result, const CallKey &key, const QString &folder,
                                QVBoxLayout *layout, QWidget *card)
{
    auto *toolCard = qobject_cast<ToolCallCard *>(card);
    for (int index = 0; index < result.tables.size(); ++index) {
        auto *view = new DataTableView(result.tables.at(index), folder);
        layout->addWidget(view);
        if (toolCard)
            QObject::connect(view, &DataTableView::saveRequested, toolCard,
                             [toolCard, key, index](const QString &format) {
                                 Q_EMIT toolCard->tableSaveRequested(key, index, format);
                             });
    }
}

void PythonPresenter::addResultWidgets(const TurnItem &item, const QString &folder, QVBoxLayout *layout,
                                       QWidget *card) const
{
    const auto *result = std::get_if<ExecutionResult>(&item.result);
    if (!result)
        return;
    const QString name = tr("Warning");
    for (const QString &markdown : result->markdown) {
        auto *view = new MarkdownView;
        view->setConversationFolder(folder);
        view->setMarkdownText(markdown);
        layout->addWidget(view);
    }
    addTables(*result, item.callKey, folder, layout, card);
    for (const QString &svg : result->svg)
        layout->addWidget(svgImage(svg, 640), 0, Qt::AlignLeft);
    auto *toolCard = qobject_cast<ToolCallCard *>(card);
    for (const QString &figure : result->figures) {
        auto *view = new FigureView(folder, figure, 640);
        if (toolCard)
            QObject::connect(view, &FigureView::showToModelRequested, toolCard, &ToolCallCard::imageShowRequested);
        layout->addWidget(view, 0, Qt::AlignLeft);
    }
    if (result->figuresNotKept > 0)
        layout->addWidget(warning(
            tr("And %1 more figures that were not kept: too many for one run.").arg(result->figuresNotKept), name));
    for (const QString &file : result->files.mid(0, maxListedFiles))
        layout->addWidget(new SandboxFileRow(folder, file, result->onEngine.value(file, -1)));
    if (result->files.size() > maxListedFiles)
        layout->addWidget(warning(
            tr("And %1 more files; they are in the conversation's folder.").arg(result->files.size() - maxListedFiles),
            name));
    if (!result->stopReason.isEmpty())
        layout->addWidget(warning(result->stopReason, name));
    if (!result->refused.isEmpty())
        layout->addWidget(warning(tr("Sandpiper refused what the sandbox reported:") + QStringLiteral("\n• ") +
                                      result->refused.join(QStringLiteral("\n• ")),
                                  name));
}

} // namespace Sandpiper
