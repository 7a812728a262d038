import { isHttpUrl } from '@store/shared';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import DOMPurify from 'dompurify';
import { useEffect } from 'react';

export interface RichTextEditorProps {
  /** HTML; what the editor shows is sanitised and then parsed into the editor's schema (only its nodes and marks survive). */
  value: string;
  onChange: (html: string) => void;
  labelId: string;
  describedBy?: string;
  invalid?: boolean;
}

const safeLink = (url: string) => isHttpUrl(url) || /^mailto:[^\s<>"]+$/i.test(url);

/**
 * The product description's rich-text editor (TipTap). Loaded with a dynamic import by the product edit page
 * only, so the storefront never downloads it. The server sanitises what is saved (description.ts); the
 * editor's schema has only what that allowlist keeps (no images, no horizontal rules, no attributes but links).
 */
export default function RichTextEditor({ value, onChange, labelId, describedBy, invalid }: RichTextEditorProps) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        horizontalRule: false,
        link: {
          openOnClick: false,
          autolink: true,
          protocols: ['mailto'],
          isAllowedUri: (url) => safeLink(url),
          HTMLAttributes: { rel: 'noopener noreferrer nofollow', target: null },
        },
      }),
    ],
    content: DOMPurify.sanitize(value),
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
        class: `form-control rich-text-content${invalid ? ' is-invalid' : ''}`,
        'data-testid': 'description-editor',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });

  // a new value from outside (the saved product): shown unless it is what the editor already holds
  useEffect(() => {
    // an instance React has already let go of (its schema is gone): the next render brings the live one
    if (editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if (value !== current && !editor.isFocused)
      editor.commands.setContent(DOMPurify.sanitize(value), { emitUpdate: false });
  }, [editor, value]);

  return (
    <div className="rich-text">
      <Toolbar editor={editor} labelId={labelId} />
      <EditorContent editor={editor} />
    </div>
  );
}

function Toolbar({ editor, labelId }: { editor: Editor; labelId: string }) {
  const state = useEditorState({
    editor,
    // a destroyed instance (see above) has no commands to ask
    selector: ({ editor: e }) =>
      e.isDestroyed
        ? null
        : {
            bold: e.isActive('bold'),
            italic: e.isActive('italic'),
            underline: e.isActive('underline'),
            strike: e.isActive('strike'),
            h2: e.isActive('heading', { level: 2 }),
            h3: e.isActive('heading', { level: 3 }),
            bulletList: e.isActive('bulletList'),
            orderedList: e.isActive('orderedList'),
            blockquote: e.isActive('blockquote'),
            link: e.isActive('link'),
            canUndo: e.can().undo(),
            canRedo: e.can().redo(),
          },
  });
  if (!state) return null;
  const chain = () => editor.chain().focus();
  const link = () => {
    if (state.link) {
      chain().extendMarkRange('link').unsetLink().run();
      return;
    }
    const url = window.prompt('Link address (https://…)')?.trim();
    if (url && safeLink(url)) chain().extendMarkRange('link').setLink({ href: url }).run();
  };
  const buttons: { label: string; text: string; active?: boolean; disabled?: boolean; run: () => void }[] = [
    { label: 'Bold', text: 'B', active: state.bold, run: () => chain().toggleBold().run() },
    { label: 'Italic', text: 'I', active: state.italic, run: () => chain().toggleItalic().run() },
    { label: 'Underline', text: 'U', active: state.underline, run: () => chain().toggleUnderline().run() },
    { label: 'Strikethrough', text: 'S', active: state.strike, run: () => chain().toggleStrike().run() },
    { label: 'Heading', text: 'H2', active: state.h2, run: () => chain().toggleHeading({ level: 2 }).run() },
    { label: 'Subheading', text: 'H3', active: state.h3, run: () => chain().toggleHeading({ level: 3 }).run() },
    { label: 'Bulleted list', text: '•', active: state.bulletList, run: () => chain().toggleBulletList().run() },
    { label: 'Numbered list', text: '1.', active: state.orderedList, run: () => chain().toggleOrderedList().run() },
    { label: 'Quote', text: '❝', active: state.blockquote, run: () => chain().toggleBlockquote().run() },
    { label: state.link ? 'Remove link' : 'Link', text: '🔗', active: state.link, run: link },
    { label: 'Undo', text: '↶', disabled: !state.canUndo, run: () => chain().undo().run() },
    { label: 'Redo', text: '↷', disabled: !state.canRedo, run: () => chain().redo().run() },
  ];
  return (
    <div className="btn-toolbar flex-wrap gap-1 mb-1" role="toolbar" aria-labelledby={labelId}>
      {buttons.map((b) => (
        <button
          key={b.text}
          type="button"
          className={`btn btn-sm ${b.active ? 'btn-secondary' : 'btn-outline-secondary'}`}
          aria-label={b.label}
          title={b.label}
          aria-pressed={b.active === undefined ? undefined : b.active}
          disabled={b.disabled}
          onMouseDown={(e) => e.preventDefault()}
          onClick={b.run}
        >
          <span aria-hidden="true">{b.text}</span>
        </button>
      ))}
    </div>
  );
}
