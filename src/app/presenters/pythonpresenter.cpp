#include "presenters/pythonpresenter.h"

#include "chat/executionresultview.h"
#include "chat/toolcallcard.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

namespace Sandpiper {

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
    const QString status = ExecutionResultView::statusText(*result);
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
    return output.trimmed();
}

void PythonPresenter::addResultWidgets(const TurnItem &item, ToolCallCard &card) const
{
    const auto *result = std::get_if<ExecutionResult>(&item.result);
    if (!result)
        return;
    auto *view = new ExecutionResultView(*result, card.conversationFolder(), ExecutionResultView::Place::Card,
                                         card.markdownContext());
    QObject::connect(view, &ExecutionResultView::tableSaveRequested, &card,
                     [&card, key = item.callKey](int index, const QString &format) {
                         Q_EMIT card.tableSaveRequested(key, index, format);
                     });
    QObject::connect(view, &ExecutionResultView::imageShowRequested, &card, &ToolCallCard::imageShowRequested);
    card.addResultWidget(view);
}

} // namespace Sandpiper
