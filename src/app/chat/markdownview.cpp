#include "chat/markdownview.h"

#include "chat/highlighting.h"
#include "chat/markdownsource.h"
#include "chat/markdownviewaccessible.h"
#include "chat/mathobject.h"
#include "chat/remoteimages.h"
#include "chat/sandboxfileactions.h"
#include "chat/sandboximage.h"

#include <logging.h>
#include <math/mathrenderer.h>
#include <sandbox/sandboxfolder.h>

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QCursor>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QHelpEvent>
#include <QMenu>
#include <QMimeData>
#include <QPointer>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QToolTip>

#include <memory>

namespace Sandpiper {

namespace {

// Whether BLOCK stands in the document's own flow, in no list and no table.
bool isPlain(const QTextBlock &block)
{
    return !block.textList() && QTextCursor(block).currentFrame() == block.document()->rootFrame();
}

// Whether two blocks outside lists and tables read the same: text, formats, and the format of
// each of their parts.
bool sameBlock(const QTextBlock &shown, const QTextBlock &rendered)
{
    if (!isPlain(shown) || !isPlain(rendered) || shown.text() != rendered.text() ||
        shown.blockFormat() != rendered.blockFormat() || shown.charFormat() != rendered.charFormat())
        return false;
    auto a = shown.begin();
    auto b = rendered.begin();
    for (; !a.atEnd() && !b.atEnd(); ++a, ++b) {
        if (a.fragment().length() != b.fragment().length() || a.fragment().charFormat() != b.fragment().charFormat())
            return false;
    }
    return a.atEnd() && b.atEnd();
}

// Raw HTML is never read: whatever looks like a tag ("<module>", "list<int>", "a < b > c",
// "cat <<EOF", "<!--") is text. Qt's reader would take it as the start of HTML and drop everything
// after it up to a closing tag that never comes.
constexpr auto markdownFeatures =
    QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub | QTextDocument::MarkdownNoHTML);

// Images are shown at most 720 pixels wide: twice that keeps them sharp on a high-density screen.
constexpr int maxImageWidth = 1440;

} // namespace

MarkdownView::MarkdownView(const MarkdownContext &context, QWidget *parent)
    : QTextBrowser(parent)
    , m_context(context)
{
    setOpenLinks(false);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setTextInteractionFlags(Qt::TextBrowserInteraction | Qt::TextSelectableByKeyboard);
    viewport()->setAutoFillBackground(false);
    // Growing at the bottom as an answer streams in paints only what is new.
    setAttribute(Qt::WA_StaticContents);
    viewport()->setAttribute(Qt::WA_StaticContents);
    document()->setDocumentMargin(2);
    connect(this, &QTextBrowser::anchorClicked, this, &MarkdownView::openLink);
    // A screen reader reads formulas as their TeX.
    MarkdownViewAccessible::install();
    m_math = new MathObject(this, m_context.math);
    document()->documentLayout()->registerHandler(MathObject::objectType, m_math);
    if (m_context.math)
        connect(m_context.math, &MathRenderer::finished, this, &MarkdownView::formulaFinished);
    if (m_context.remoteImages)
        connect(m_context.remoteImages, &RemoteImages::finished, this, &MarkdownView::remoteImageFinished);
    m_formulaLayout.setSingleShot(true);
    m_formulaLayout.setInterval(15);
    connect(&m_formulaLayout, &QTimer::timeout, this, [this] {
        document()->markContentsDirty(0, document()->characterCount());
        updateHeight();
        viewport()->update();
    });
}

void MarkdownView::setConversationFolder(const QString &folder)
{
    m_folder = folder;
}

void MarkdownView::setTextIsMarkdown(bool markdown)
{
    if (markdown == m_textIsMarkdown)
        return;
    m_textIsMarkdown = markdown;
    if (!m_markdown.isEmpty())
        render();
}

void MarkdownView::setMarkdownText(const QString &markdown)
{
    if (markdown == m_markdown && !document()->isEmpty())
        return;
    m_markdown = markdown;
    render();
}

void MarkdownView::appendStreamingMarkdown(const QString &text)
{
    if (text.isEmpty())
        return;
    m_markdown += text;
    if (!m_textIsMarkdown) {
        render();
        return;
    }
    // Paragraphs that are finished now are rendered once, and stay.
    const qsizetype boundary = MarkdownSource::lastParagraphBoundary(m_markdown, m_frozenLength);
    QTextDocument finished(this);
    int finishedFirst = 0;
    if (boundary > m_frozenLength)
        finishedFirst = renderChunk(m_markdown.mid(m_frozenLength, boundary - m_frozenLength), m_tailPosition == 0,
                                    finished, &m_frozenCodeBlocks, &m_frozenLanguages);
    m_frozenLength = boundary;
    QTextDocument tail(this);
    m_codeBlocks = m_frozenCodeBlocks;
    QStringList languages = m_frozenLanguages;
    const int tailFirst = renderChunk(m_markdown.mid(m_frozenLength), m_tailPosition == 0 && finished.isEmpty(), tail,
                                      &m_codeBlocks, &languages);
    showStreamed({finished, finishedFirst}, {tail, tailFirst});
    updateHeight();
}

QString MarkdownView::sandboxNameOf(const QUrl &url) const
{
    const QString prefix = QDir::cleanPath(m_folder) + QLatin1Char('/');
    const QString path = QDir::cleanPath(url.toLocalFile());
    if (m_folder.isEmpty() || !url.isLocalFile() || !path.startsWith(prefix))
        return {};
    return path.mid(prefix.size());
}

QString MarkdownView::preprocess(const QString &markdown, QStringList *codeBlocks, QStringList *languages) const
{
    return MarkdownSource(m_folder, m_context.remoteImages.get()).prepare(markdown, codeBlocks, languages);
}

void MarkdownView::render()
{
    QStringList languages;
    m_codeBlocks.clear();
    // A complete text is rendered in one go; if more streams in after it, the next chunk starts
    // from the beginning again, since where its last paragraph began is not known here.
    m_frozenLength = 0;
    m_tailPosition = 0;
    m_frozenCodeBlocks.clear();
    m_frozenLanguages.clear();
    m_formulas.clear();
    if (!m_textIsMarkdown) {
        document()->setPlainText(m_markdown);
        m_layoutWidth = -1;
        updateHeight();
        return;
    }
    const QString prepared = preprocess(m_markdown, &m_codeBlocks, &languages);
    document()->setMarkdown(prepared, markdownFeatures);
    presentFormulas(document());
    decorateCodeBlocks(document(), languages);
    fitImages(document());
    m_layoutWidth = -1; // a new document is laid out anew
    updateHeight();
}

int MarkdownView::renderChunk(const QString &markdown, bool atStart, QTextDocument &chunk, QStringList *codeBlocks,
                              QStringList *languages)
{
    const qsizetype firstLanguage = languages->size();
    const QString prepared = preprocess(markdown, codeBlocks, languages);
    chunk.setDefaultFont(document()->defaultFont());
    // Qt formats a document's first block unlike the blocks after it: a paragraph of no meaning
    // goes first when the chunk is not shown first.
    chunk.setMarkdown(atStart ? prepared : QStringLiteral("x\n\n") + prepared, markdownFeatures);
    presentFormulas(&chunk);
    decorateCodeBlocks(&chunk, languages->mid(firstLanguage));
    fitImages(&chunk);
    return atStart ? 0 : 1;
}

void MarkdownView::showStreamed(const Chunk &finished, const Chunk &tail)
{
    // The blocks to show after m_tailPosition, in order, and how many of them the document
    // already shows there, the same (the paragraph just finished, the lines of code written).
    QList<QTextBlock> blocks;
    for (const Chunk &chunk : {finished, tail}) {
        for (QTextBlock block = chunk.document.findBlockByNumber(chunk.first); chunk.blocks() > 0 && block.isValid();
             block = block.next())
            blocks << block;
    }
    const int finishedBlocks = finished.blocks();
    const int start = m_tailPosition;
    QTextBlock shown = start > 0 ? document()->findBlock(start).next() : document()->begin();
    int kept = 0;
    int keptEnd = m_tailPosition; // where the blocks kept end
    if (!document()->isEmpty()) {
        for (; kept < blocks.size() && shown.isValid() && sameBlock(shown, blocks.at(kept)); ++kept) {
            keptEnd = shown.position() + shown.length() - 1;
            if (kept + 1 == finishedBlocks)
                m_tailPosition = keptEnd;
            shown = shown.next();
        }
    }
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    cursor.setPosition(keptEnd);
    // The block that stays takes the formats of the first one removed after it: it gets its own back.
    const QTextBlockFormat lastKeptFormat = cursor.blockFormat();
    const QTextCharFormat lastKeptCharFormat = cursor.blockCharFormat();
    cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    if (keptEnd > 0 && cursor.blockFormat() != lastKeptFormat)
        cursor.setBlockFormat(lastKeptFormat);
    if (keptEnd > 0 && cursor.blockCharFormat() != lastKeptCharFormat)
        cursor.setBlockCharFormat(lastKeptCharFormat);
    if (kept < finishedBlocks) {
        appendChunk(cursor, finished.document, finished.first + kept);
        m_tailPosition = document()->characterCount() - 1;
    }
    const int tailKept = std::max(0, kept - finishedBlocks);
    if (tailKept < tail.blocks())
        appendChunk(cursor, tail.document, tail.first + tailKept);
    // Qt gives a block inserted next to a table or into an empty block formats of its neighbours;
    // each block takes its own from the chunk again.
    shown = start > 0 ? document()->findBlock(start).next() : document()->begin();
    for (qsizetype i = 0; i < blocks.size() && shown.isValid(); ++i, shown = shown.next()) {
        const QTextBlock &rendered = blocks.at(i);
        if (i < kept || !isPlain(shown) || !isPlain(rendered))
            continue;
        cursor.setPosition(shown.position());
        if (shown.blockFormat() != rendered.blockFormat())
            cursor.setBlockFormat(rendered.blockFormat());
        if (shown.charFormat() != rendered.charFormat())
            cursor.setBlockCharFormat(rendered.charFormat());
    }
    cursor.endEditBlock();
}

void MarkdownView::appendChunk(QTextCursor &cursor, QTextDocument &chunk, int first)
{
    const QTextBlock from = chunk.findBlockByNumber(first);
    cursor.movePosition(QTextCursor::End);
    const bool ownBlock = cursor.position() > 0;
    // The chunk's first block keeps its format (a heading, a code block) in a block of its own.
    if (ownBlock)
        cursor.insertBlock(from.blockFormat(), from.charFormat());
    const int start = cursor.position();
    QTextCursor selection(&chunk);
    selection.setPosition(from.position());
    selection.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.insertFragment(QTextDocumentFragment(selection));
    // A chunk that begins with a list or a table gets a block of its own from Qt, which leaves
    // the one made above empty.
    const QTextBlock made = document()->findBlock(start);
    if (ownBlock && !isPlain(from) && made.length() == 1 && made.next().isValid()) {
        cursor.setPosition(made.position() - 1);
        cursor.setPosition(made.position(), QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    }
}

void MarkdownView::presentFormulas(QTextDocument *document)
{
    const QString prefix = MarkdownSource::mathScheme + QLatin1Char(':');
    // One edit: the document is laid out once, not once per formula.
    QTextCursor cursor(document);
    cursor.beginEditBlock();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        bool displayOnly = false;
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QString name =
                fragment.charFormat().isImageFormat() ? fragment.charFormat().toImageFormat().name() : QString();
            if (!name.startsWith(prefix))
                continue;
            const bool display = name.mid(prefix.size(), 2) == QLatin1String("d/");
            const QString tex = QUrl::fromPercentEncoding(name.mid(prefix.size() + 2).toLatin1());
            m_formulas.insert(tex);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(MathObject::format(tex, display));
            displayOnly = display && block.text().trimmed().size() == fragment.length();
        }
        if (displayOnly) {
            // A formula on display stands centred in a paragraph of its own.
            QTextBlockFormat format = block.blockFormat();
            format.setAlignment(Qt::AlignHCenter);
            cursor.setPosition(block.position());
            cursor.setBlockFormat(format);
        }
    }
    cursor.endEditBlock();
}

void MarkdownView::formulaFinished(const QString &tex)
{
    if (m_formulas.contains(tex) && !m_formulaLayout.isActive())
        m_formulaLayout.start();
}

QTextFormat MarkdownView::formulaAt(const QPoint &point) const
{
    const QPointF position = point + QPointF(horizontalScrollBar()->value(), verticalScrollBar()->value());
    const int hit = document()->documentLayout()->hitTest(position, Qt::ExactHit);
    if (hit < 0)
        return {};
    // The hit is the position before or after the character under the point.
    for (const int candidate : {hit, hit - 1}) {
        const QTextBlock block = document()->findBlock(candidate);
        for (auto it = block.begin(); block.isValid() && !it.atEnd(); ++it) {
            if (it.fragment().contains(candidate) && MathObject::isFormula(it.fragment().charFormat()))
                return it.fragment().charFormat();
        }
    }
    return {};
}

bool MarkdownView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QTextFormat formula = formulaAt(help->pos());
        if (formula.isValid()) {
            QToolTip::showText(help->globalPos(), m_math->toolTip(formula), viewport());
            return true;
        }
    }
    return QTextBrowser::viewportEvent(event);
}

void MarkdownView::contextMenuEvent(QContextMenuEvent *event)
{
    std::unique_ptr<QMenu> menu(createStandardContextMenu(event->pos()));
    // Without scrolling (the view grows to fit), the event's position is the viewport's.
    const QTextFormat formula = formulaAt(event->pos());
    if (formula.isValid()) {
        const QString source = MathObject::source(formula);
        QAction *copy = new QAction(tr("Copy Formula as &TeX"), menu.get());
        connect(copy, &QAction::triggered, this, [source] { QApplication::clipboard()->setText(source); });
        menu->insertAction(menu->actions().value(0), copy);
        menu->insertSeparator(menu->actions().value(1));
    }
    menu->exec(event->globalPos());
}

QMimeData *MarkdownView::createMimeDataFromSelection() const
{
    const QTextCursor selection = textCursor();
    bool hasFormula = false;
    QString text =
        MathObject::readableText(document(), selection.selectionStart(), selection.selectionEnd(), &hasFormula);
    if (!hasFormula)
        return QTextBrowser::createMimeDataFromSelection();
    // A formula is its TeX: rich text would hold nothing where it stands.
    auto *data = new QMimeData;
    text.remove(QChar::ObjectReplacementCharacter);
    text.replace(QChar::LineSeparator, QLatin1Char('\n'));
    text.replace(QChar::Nbsp, QLatin1Char(' '));
    data->setText(text);
    return data;
}

void MarkdownView::decorateCodeBlocks(QTextDocument *document, const QStringList &languages) const
{
    const auto theme = Highlighting::themeFor(palette());
    const QColor background = palette().color(QPalette::AlternateBase);
    int index = -1;
    int first = -1;
    auto finishGroup = [&](int last) {
        if (first < 0)
            return;
        const QString language = index >= 0 && index < languages.size() ? languages.at(index) : QString();
        Highlighting::highlightBlocks(document, first, last, Highlighting::definitionForLanguage(language), theme,
                                      background);
        first = -1;
    };
    // The line above a code block, with its copy link, is set small (as <small> would).
    QTextCharFormat small;
    small.setProperty(QTextFormat::FontSizeAdjustment, -1);
    const QString copyPrefix = MarkdownSource::copyScheme + QLatin1Char(':');
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        const bool isCode = block.blockFormat().hasProperty(QTextFormat::BlockCodeFence);
        for (auto it = block.begin(); !isCode && !it.atEnd(); ++it) {
            if (it.fragment().charFormat().anchorHref().startsWith(copyPrefix)) {
                QTextCursor header(block);
                header.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
                header.mergeCharFormat(small);
                break;
            }
        }
        if (isCode && first < 0) {
            first = block.blockNumber();
            ++index;
        } else if (!isCode && first >= 0) {
            finishGroup(block.blockNumber() - 1);
        }
        if (isCode) {
            QTextBlockFormat format = block.blockFormat();
            format.setBackground(background);
            // A long line wraps: kept whole, it made the answer wider than the view, which
            // scrolled sideways to the line's end and hid everything else.
            format.setNonBreakableLines(false);
            QTextCursor(block).setBlockFormat(format);
        }
    }
    finishGroup(document->blockCount() - 1);
}

void MarkdownView::fitImages(QTextDocument *document)
{
    const int available = std::max(120, viewport()->width() - 12);
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().isImageFormat())
                continue;
            QTextImageFormat format = fragment.charFormat().toImageFormat();
            const QImage image = loadResource(QTextDocument::ImageResource, QUrl(format.name())).value<QImage>();
            if (image.isNull())
                continue;
            const int width = std::min(image.width(), std::min(available, 720));
            format.setWidth(width);
            format.setHeight(double(image.height()) * width / image.width());
            QTextCursor cursor(document);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(format);
        }
    }
}

QVariant MarkdownView::loadResource(int type, const QUrl &name)
{
    // Never an empty QVariant: QTextDocument would then read the file itself, and raw HTML in
    // the answer can name any file of this computer (<img src="/home/...">).
    if (type != QTextDocument::ImageResource)
        return QByteArray(); // style sheets and the like: nothing is loaded
    if (m_context.remoteImages && m_context.remoteImages->isLoaded(name))
        return m_context.remoteImages->images().value(name);
    // Only the conversation's own images, checked now: the sandbox may have swapped in a link.
    const QString sandboxName = sandboxNameOf(name);
    QString error;
    const QImage image = sandboxName.isEmpty()
                             ? QImage()
                             : SandboxImage::load(SandboxFolder(m_folder), sandboxName, maxImageWidth, &error);
    if (!error.isEmpty())
        qCDebug(lcApp) << "image not shown:" << error;
    return image;
}

void MarkdownView::updateHeight()
{
    // Setting the width lays out the whole document again, even when it does not change.
    if (m_layoutWidth != viewport()->width()) {
        m_layoutWidth = viewport()->width();
        document()->setTextWidth(m_layoutWidth);
    }
    const int height = int(std::ceil(document()->size().height())) + frameWidth() * 2 + 2;
    if (height != this->height())
        setFixedHeight(height);
}

void MarkdownView::resizeEvent(QResizeEvent *event)
{
    QTextBrowser::resizeEvent(event);
    if (width() != m_lastWidth) {
        m_lastWidth = width();
        fitImages(document());
        updateHeight();
    }
}

void MarkdownView::changeEvent(QEvent *event)
{
    QTextBrowser::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_markdown.isEmpty())
        render();
}

QSize MarkdownView::sizeHint() const
{
    return {400, height()};
}

QSize MarkdownView::minimumSizeHint() const
{
    return {100, height()};
}

void MarkdownView::openLink(const QUrl &url)
{
    if (url.scheme() == MarkdownSource::copyScheme) {
        const int index = url.path().toInt();
        if (index >= 0 && index < m_codeBlocks.size()) {
            QApplication::clipboard()->setText(m_codeBlocks.at(index));
            Q_EMIT codeCopied(index);
        }
        return;
    }
    if (url.scheme() == MarkdownSource::loadImageScheme) {
        const QUrl image = QUrl::fromEncoded(QByteArray::fromPercentEncoding(url.path().toLatin1()));
        // Without the window's remote images (a view on its own), the browser shows it.
        if (m_context.remoteImages)
            m_context.remoteImages->load(image);
        else if (image.scheme() == QLatin1String("http") || image.scheme() == QLatin1String("https"))
            QDesktopServices::openUrl(image);
        return;
    }
    if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https") ||
        url.scheme() == QLatin1String("mailto")) {
        QDesktopServices::openUrl(url);
        return;
    }
    // A file is opened only from the conversation's folder, and never run.
    const QString name =
        url.isLocalFile() ? sandboxNameOf(url) : MarkdownSource(m_folder, nullptr).sandboxNameFor(url.toString());
    if (!name.isEmpty())
        SandboxFileActions::open(this, SandboxFolder(m_folder), name);
    else if (url.isLocalFile())
        QToolTip::showText(QCursor::pos(), tr("Links to files outside this conversation's folder are not opened."),
                           this);
}

void MarkdownView::remoteImageFinished(const QUrl &url)
{
    // Only a view whose text names the image renders again.
    if (m_markdown.contains(url.toString()) || m_markdown.contains(QString::fromLatin1(url.toEncoded())))
        render();
}

} // namespace Sandpiper
