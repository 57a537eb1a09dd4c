#include "chat/codeeditor.h"

#include "chat/highlighting.h"

#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QFontDatabase>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>

namespace Sandpiper {

namespace {

class LineNumberArea : public QWidget
{
public:
    explicit LineNumberArea(CodeEditor *editor)
        : QWidget(editor)
        , m_editor(editor)
    {}
    QSize sizeHint() const override { return {m_editor->lineNumberAreaWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintLineNumbers(event); }

private:
    CodeEditor *m_editor;
};

} // namespace

CodeEditor::CodeEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_lineNumbers(new LineNumberArea(this))
    , m_highlighter(new KSyntaxHighlighting::SyntaxHighlighter(document()))
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabChangesFocus(true);
    setLanguage(QStringLiteral("Python"));
    applyTheme();
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] {
        updateMargins();
        updateAutoHeight();
    });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy)
            m_lineNumbers->scroll(0, dy);
        else
            m_lineNumbers->update(0, rect.y(), m_lineNumbers->width(), rect.height());
    });
    updateMargins();
}

void CodeEditor::setLanguage(const QString &language)
{
    m_highlighter->setDefinition(Highlighting::definitionForLanguage(language));
}

void CodeEditor::setAutoHeight(int maxLines)
{
    m_maxLines = maxLines;
    updateAutoHeight();
}

void CodeEditor::updateAutoHeight()
{
    if (m_maxLines <= 0)
        return;
    const int lines = std::clamp(blockCount(), 1, m_maxLines);
    setFixedHeight(lines * fontMetrics().lineSpacing() + 2 * frameWidth() + int(document()->documentMargin() * 2) +
                   (horizontalScrollBar()->isVisible() ? horizontalScrollBar()->height() : 0) + 2);
}

void CodeEditor::applyTheme()
{
    const auto theme = Highlighting::themeFor(palette());
    m_highlighter->setTheme(theme);
    m_highlighter->rehighlight();
}

void CodeEditor::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
}

int CodeEditor::lineNumberAreaWidth() const
{
    const int digits = QString::number(std::max(1, blockCount())).size();
    return 8 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void CodeEditor::updateMargins()
{
    setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
}

void CodeEditor::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect area = contentsRect();
    m_lineNumbers->setGeometry(area.left(), area.top(), lineNumberAreaWidth(), area.height());
}

void CodeEditor::paintLineNumbers(QPaintEvent *event)
{
    QPainter painter(m_lineNumbers);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    painter.setPen(palette().color(QPalette::PlaceholderText));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        if (block.isVisible() && bottom >= event->rect().top())
            painter.drawText(0, top, m_lineNumbers->width() - 4, fontMetrics().height(), Qt::AlignRight,
                             QString::number(block.blockNumber() + 1));
        block = block.next();
        top = bottom;
    }
}

} // namespace Sandpiper
