import { Component, type ReactNode } from 'react';
import { paths } from '../lib/paths.ts';

interface State {
  error: Error | null;
}

/** Catches a page that fails to render or whose code cannot load (e.g. a new release replaced it). */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidUpdate(prev: { resetKey: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="py-5 text-center" role="alert">
        <h1 className="h3">Something went wrong</h1>
        <p className="text-body-secondary">{this.state.error.message}</p>
        <div className="d-flex justify-content-center gap-2">
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            Reload the page
          </button>
          <a href={paths.home} className="btn btn-outline-secondary">
            Back to the shop
          </a>
        </div>
      </div>
    );
  }
}
