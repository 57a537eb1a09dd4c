#pragma once

#include <QPlainTextEdit>

namespace KSyntaxHighlighting {
class SyntaxHighlighter;
}

namespace Sandpiper {

// Python (or other) code with highlighting and line numbers; read-only unless made editable.
class CodeEditor : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit CodeEditor(QWidget *parent = nullptr);
    void setLanguage(const QString &language);
    // Grows with its content up to MAXLINES lines, then scrolls; long lines wrap.
    void setAutoHeight(int maxLines);

    int lineNumberAreaWidth() const;
    void paintLineNumbers(QPaintEvent *event);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateMargins();
    void updateAutoHeight();
    void applyTheme();

    QWidget *m_lineNumbers;
    KSyntaxHighlighting::SyntaxHighlighter *m_highlighter;
    int m_maxLines = 0;
};

} // namespace Sandpiper
