#include "presenters/mcppresenter.h"

#include "chat/figureview.h"
#include "chat/sandboxfilerow.h"
#include "chat/svgfigure.h"
#include "chat/toolcallcard.h"

#include <mcp/mcpresultreader.h>
#include <mcp/mcptoolname.h>
#include <sandbox/sandboxfolder.h>
#include <sandbox/svgsanitizer.h>

#include <QJsonDocument>
#include <QLabel>
#include <QUrl>

namespace Sandpiper {

QString McpPresenter::title(const ToolCall &call) const
{
    return tr("%1 (MCP server %2)").arg(McpToolName::toolOf(call.name), McpToolName::serverOf(call.name));
}

QString McpPresenter::alwaysAllowText() const
{
    return tr("Always allow this tool");
}

QString McpPresenter::approvalNote(const ToolCall &call) const
{
    return tr("The MCP server %1 is a program on this computer that runs with your rights. Check the arguments "
              "before it runs them; \"Always allow\" lasts until you take it back in Settings › MCP.")
        .arg(McpToolName::serverOf(call.name));
}

QString McpPresenter::resultText(const TurnItem &item) const
{
    const auto *result = std::get_if<McpResult>(&item.result);
    if (!result)
        return item.modelText;
    QString text = result->text;
    if (!result->structured.isEmpty() && QJsonDocument::fromJson(result->text.toUtf8()).object() != result->structured)
        text += (text.isEmpty() ? QString() : QStringLiteral("\n\n")) +
                QString::fromUtf8(QJsonDocument(result->structured).toJson(QJsonDocument::Indented)).trimmed();
    return text.isEmpty() ? item.modelText : text;
}

void McpPresenter::addResultWidgets(const TurnItem &item, ToolCallCard &card) const
{
    const QString &folder = card.conversationFolder();
    // A stored conversation keeps the model's text, which names the files it saved.
    const auto *live = std::get_if<McpResult>(&item.result);
    const McpResult result = live ? *live : McpResultReader::fromModelText(item.modelText);
    for (const QString &image : result.images) {
        // An SVG is drawn as the sandbox's are: with nothing outside it, off the GUI thread.
        QString error;
        const std::optional<QByteArray> svg =
            image.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)
                ? SandboxFolder(folder).read(image, SvgSanitizer::defaultBudget.maxBytes, &error)
                : std::nullopt;
        if (svg)
            card.addResultWidget(new SvgFigure(*svg, 480), Qt::AlignLeft);
        else
            card.addResultWidget(new FigureView(folder, image, 480), Qt::AlignLeft);
    }
    for (const McpResultFile &file : result.files) {
        if (!file.path.isEmpty()) {
            card.addResultWidget(new SandboxFileRow(folder, file.path));
            continue;
        }
        const QUrl url(file.uri);
        const QString shown =
            url.isLocalFile() || url.scheme().startsWith(QLatin1String("http"))
                ? QStringLiteral("<a href=\"%1\">%2</a>")
                      .arg(url.toString(QUrl::FullyEncoded).toHtmlEscaped(), file.name.toHtmlEscaped())
                : QStringLiteral("<b>%1</b>").arg(file.name.toHtmlEscaped());
        auto *label =
            new QLabel(tr("Resource: %1 <span style=\"color: gray;\">%2 %3</span>%4")
                           .arg(shown, file.uri.toHtmlEscaped(), file.mimeType.toHtmlEscaped(),
                                file.description.isEmpty()
                                    ? QString()
                                    : QStringLiteral("<br><small>%1</small>").arg(file.description.toHtmlEscaped())));
        label->setWordWrap(true);
        label->setOpenExternalLinks(true);
        label->setTextInteractionFlags(Qt::TextBrowserInteraction);
        label->setAccessibleName(tr("Resource %1").arg(file.name));
        card.addResultWidget(label);
    }
}

} // namespace Sandpiper
